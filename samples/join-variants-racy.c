// As join-variants.c, but main reads the worker's result after a pthread_clockjoin_np that
// timed out at once (the worker still sleeps): a join that failed orders nothing.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static long result;

static void* worker(void* arg) {
    (void)arg;
    struct timespec pause = {0, 50 * 1000 * 1000};
    nanosleep(&pause, NULL);
    result = 100; // RACE
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now); // already reached: times out (the worker sleeps)
    if (pthread_clockjoin_np(t, NULL, CLOCK_MONOTONIC, &now) == 0) return 1;
    long r = result; // RACE
    pthread_join(t, NULL);
    printf("%ld\n", r);
    return 0;
}
