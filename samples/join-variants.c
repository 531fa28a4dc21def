// The GNU join variants end a thread's results' journey as pthread_join does: a worker's
// result is read after pthread_tryjoin_np (polled until the worker ended), after
// pthread_timedjoin_np and after pthread_clockjoin_np (glibc 2.34) succeeded. No race.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static long result[3];

static void* worker(void* arg) {
    long i = (long)arg;
    result[i] = 100 + i;
    return NULL;
}

static struct timespec in_ten_seconds(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    t.tv_sec += 10;
    return t;
}

int main(void) {
    pthread_t t[3];
    for (long i = 0; i < 3; ++i)
        pthread_create(&t[i], NULL, worker, (void*)i);
    while (pthread_tryjoin_np(t[0], NULL) == EBUSY) {
        struct timespec pause = {0, 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    long sum = result[0];
    struct timespec limit = in_ten_seconds(CLOCK_REALTIME);
    if (pthread_timedjoin_np(t[1], NULL, &limit) != 0) return 1;
    sum += result[1];
    limit = in_ten_seconds(CLOCK_MONOTONIC);
    if (pthread_clockjoin_np(t[2], NULL, CLOCK_MONOTONIC, &limit) != 0) return 1;
    sum += result[2];
    printf("%ld\n", sum);
    return 0;
}
