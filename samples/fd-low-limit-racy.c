// fd-low-limit.c, but the adders, started when the program has left no descriptor number free,
// count without the lock.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

static volatile long total; // volatile: else optimized code adds in a register, stores once

static void* adder(void* arg) {
    for (int i = 0; i < 1000; ++i)
        total += (long)arg; // RACE
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
    return again == last && more < 0 ? 0 : 3;
}
