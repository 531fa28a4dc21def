// file-size-limit.c, but the adders count without the lock: the races are found in a trace
// written past the program's file size limit.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static volatile long total; // volatile: else optimized code adds in a register, stores once

static void* adder(void* arg) {
    for (int i = 0; i < 10000; ++i)
        total += (long)arg; // RACE
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
    return unlimited == 0 && after.rlim_cur == 1024 ? 0 : 2;
}
