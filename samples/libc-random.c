// Pseudo-random numbers as glibc implements them (rt_libc_random.cpp): rand and random take
// glibc's own lock around their shared state, so four threads calling them (and srand) never
// race; erand48 keeps its state in each thread's own xsubi, drand48_r and random_r in each
// thread's own buffer; drand48's shared state (no lock in glibc) is used under a mutex.
// No race.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static double totals[4];

static void* worker(void* arg) {
    const long id = (long)arg;
    unsigned short xsubi[3] = {(unsigned short)id, 1, 2};
    struct drand48_data buffer;
    srand48_r(id, &buffer);
    struct random_data state = {0};
    char words[64];
    initstate_r((unsigned)id, words, sizeof words, &state);
    double sum = 0;
    for (int i = 0; i < 200; ++i) {
        sum += rand() % 10 + random() % 10 + erand48(xsubi);
        if (i == 100) srand((unsigned)id);
        double d;
        drand48_r(&buffer, &d);
        int32_t r;
        random_r(&state, &r);
        sum += d + r % 3;
        pthread_mutex_lock(&lock);
        sum += drand48();
        pthread_mutex_unlock(&lock);
    }
    totals[id] = sum;
    return NULL;
}

int main(void) {
    srand48(7);
    pthread_t t[4];
    for (long i = 0; i < 4; ++i)
        pthread_create(&t[i], NULL, worker, (void*)i);
    for (int i = 0; i < 4; ++i)
        pthread_join(t[i], NULL);
    printf("%d\n", totals[0] + totals[1] + totals[2] + totals[3] > 0);
    return 0;
}
