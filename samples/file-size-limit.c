// A program that tests its handling of EFBIG: it lowers the soft RLIMIT_FSIZE to 1024 bytes,
// ignores SIGXFSZ, and checks that a write of 2048 bytes to a file of its own stops at 1024 and
// the next one fails with EFBIG; adders count under a lock meanwhile. The trace is larger than
// 1024 bytes: the runtime's writes past the limit raised SIGXFSZ, whose default action (the
// program ignores it only around its own test) killed the program, and failed. The runtime
// writes with SIGXFSZ blocked, drops the signal its write raised, and writes again with the
// soft limit raised to the hard one for that write; the program's limit is back after it. No
// race.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long total;

static void* adder(void* arg) {
    for (int i = 0; i < 10000; ++i) {
        pthread_mutex_lock(&lock);
        total += (long)arg;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

// 0 when the file size limit works for the program's own file.
static int own_file_limited(void) {
    FILE* f = tmpfile();
    if (f == NULL) return 1;
    static char block[2048];
    memset(block, 'x', sizeof block);
    const int fd = fileno(f);
    signal(SIGXFSZ, SIG_IGN);
    const ssize_t first = write(fd, block, sizeof block);
    const ssize_t second = write(fd, block, sizeof block);
    const int error = errno;
    signal(SIGXFSZ, SIG_DFL);
    fclose(f);
    return first == 1024 && second == -1 && error == EFBIG ? 0 : 1;
}

int main(void) {
    struct rlimit limit;
    getrlimit(RLIMIT_FSIZE, &limit);
    limit.rlim_cur = 1024;
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) return 1;
    pthread_t a, b;
    pthread_create(&a, NULL, adder, (void*)1);
    pthread_create(&b, NULL, adder, (void*)2);
    const int unlimited = own_file_limited();
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    struct rlimit after;
    getrlimit(RLIMIT_FSIZE, &after);
    printf("total %ld\n", total);
    return total == 30000 && unlimited == 0 && after.rlim_cur == 1024 ? 0 : 2;
}
