// Barrier phases: in each phase every worker writes its own cell, waits at the barrier, then
// reads its neighbours' cells, and waits again before the next phase overwrites them. No data
// races.
#define _XOPEN_SOURCE 700 /* POSIX 2008 with XSI: barriers, rwlocks, mutex types */
#include <pthread.h>
#include <stdio.h>

#define WORKERS 4
#define PHASES 5

static int cell[WORKERS];
static long seen[WORKERS];
static pthread_barrier_t barrier;

static void* worker(void* arg) {
    const int me = (int)(long)arg;
    for (int p = 0; p < PHASES; ++p) {
        cell[me] = p * 10 + me;
        pthread_barrier_wait(&barrier);
        seen[me] += cell[(me + 1) % WORKERS] + cell[(me + WORKERS - 1) % WORKERS];
        pthread_barrier_wait(&barrier);
    }
    return NULL;
}

int main(void) {
    pthread_barrier_init(&barrier, NULL, WORKERS);
    pthread_t t[WORKERS];
    for (long w = 0; w < WORKERS; ++w)
        pthread_create(&t[w], NULL, worker, (void*)w);
    long total = 0;
    for (int w = 0; w < WORKERS; ++w) {
        pthread_join(t[w], NULL);
        total += seen[w];
    }
    printf("total %ld\n", total);
    return 0;
}
