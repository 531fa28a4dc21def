// Compute-heavy tracing benchmark: THREADS threads sweep over shared arrays in blocks; each
// block update holds the lock that guards that block (LOCKS locks, block b -> lock b % LOCKS).
// Every thread visits every block in a different order, ROUNDS times. Race-free.
// Built with -DCALL_PER_ELEMENT, each element is updated by a call of a function that is not
// inlined (a call per access: the worst case for the tracer's shadow stack, bench/tracing/stacks.sh).
//   usage: shared_arrays [THREADS=4] [N=1<<20 elements] [BLOCK=4096] [ROUNDS=20] [LOCKS=64]
#define _XOPEN_SOURCE 700 /* POSIX 2008 with XSI: barriers, rwlocks, mutex types */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int threads = 4, n = 1 << 20, block = 4096, rounds = 20, nlocks = 64;
static double *a, *b;
static pthread_mutex_t* locks;

#ifdef CALL_PER_ELEMENT
__attribute__((noinline)) static void update(int i) {
    a[i] = a[i] * 0.5 + b[i];
}
#define UPDATE(i) update(i)
#else
#define UPDATE(i) (a[i] = a[i] * 0.5 + b[i])
#endif

static void* sweep(void* arg) {
    const int me = (int)(long)arg;
    const int blocks = n / block;
    for (int r = 0; r < rounds; ++r) {
        for (int k = 0; k < blocks; ++k) {
            const int blk = (k * 7 + me * (blocks / threads) + r) % blocks;
            pthread_mutex_t* m = &locks[blk % nlocks];
            pthread_mutex_lock(m);
            for (int i = blk * block; i < (blk + 1) * block; ++i)
                UPDATE(i);
            pthread_mutex_unlock(m);
        }
    }
    return NULL;
}

int main(int argc, char** argv) {
    if (argc > 1) threads = atoi(argv[1]);
    if (argc > 2) n = atoi(argv[2]);
    if (argc > 3) block = atoi(argv[3]);
    if (argc > 4) rounds = atoi(argv[4]);
    if (argc > 5) nlocks = atoi(argv[5]);
    a = calloc((size_t)n, sizeof *a);
    b = malloc((size_t)n * sizeof *b);
    locks = malloc((size_t)nlocks * sizeof *locks);
    for (int i = 0; i < n; ++i)
        b[i] = i % 17;
    for (int i = 0; i < nlocks; ++i)
        pthread_mutex_init(&locks[i], NULL);
    pthread_t* t = malloc((size_t)threads * sizeof *t);
    for (long i = 0; i < threads; ++i)
        pthread_create(&t[i], NULL, sweep, (void*)i);
    for (int i = 0; i < threads; ++i)
        pthread_join(t[i], NULL);
    double sum = 0;
    for (int i = 0; i < n; ++i)
        sum += a[i];
    printf("sum %.1f\n", sum);
    free(t);
    free(locks);
    free(a);
    free(b);
    return 0;
}
