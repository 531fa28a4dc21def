// A program that tests its handling of EMFILE: it lowers RLIMIT_NOFILE (soft and hard) to 32,
// opens /dev/null until the kernel refuses, and only then starts three adders that count
// under a lock. The kernel has no number left for the adders' stream files: the runtime takes
// the spare stream files it made at start-up on numbers of its own (rt_spare_stream.cpp) and
// takes none of the program's 32 numbers (the program gets EMFILE exactly where it would
// without the runtime: closing one of its descriptors lets it open exactly one). No race.
// (The adders were not traced: their streams could not be created.)
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long total;

static void* adder(void* arg) {
    for (int i = 0; i < 1000; ++i) {
        pthread_mutex_lock(&lock);
        total += (long)arg;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int main(void) {
    const struct rlimit limit = {32, 32};
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0) return 1;
    int last = -1;
    for (int fd; (fd = open("/dev/null", O_RDONLY)) >= 0;)
        last = fd;
    if (errno != EMFILE || last != 31) return 2;
    pthread_t t[3];
    for (long i = 0; i < 3; ++i)
        pthread_create(&t[i], NULL, adder, (void*)(i + 1));
    for (int i = 0; i < 3; ++i)
        pthread_join(t[i], NULL);
    close(last);
    const int again = open("/dev/null", O_RDONLY), more = open("/dev/null", O_RDONLY);
    printf("total %ld, reopened %d, then %d\n", total, again, more);
    return total == 6000 && again == last && more < 0 ? 0 : 3;
}
