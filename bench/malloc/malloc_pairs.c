/* Allocator-heavy workload for the tracing overhead of heap modelling: THREADS threads do
 * PAIRS malloc/free pairs in total (sizes 16..1024 bytes, a few live blocks per thread so that
 * blocks are recycled), touching each block once.
 *   malloc_pairs [THREADS [PAIRS]]     (default 8 threads, 10^7 pairs) */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define LIVE 8

static long pairs_per_thread;

static void* worker(void* arg) {
    unsigned seed = (unsigned)(long)arg * 2654435761u + 1;
    char* live[LIVE] = {0};
    long sum = 0;
    for (long i = 0; i < pairs_per_thread; ++i) {
        seed = seed * 1103515245u + 12345u;
        const int slot = (int)(seed >> 16) % LIVE;
        const size_t size = 16 + ((seed >> 8) % 1009);
        free(live[slot]);
        live[slot] = malloc(size);
        live[slot][0] = (char)i;
        sum += live[slot][0];
    }
    for (int k = 0; k < LIVE; ++k)
        free(live[k]);
    return (void*)sum;
}

int main(int argc, char** argv) {
    const int threads = argc > 1 ? atoi(argv[1]) : 8;
    const long pairs = argc > 2 ? atol(argv[2]) : 10000000L;
    if (threads < 1 || threads > 256 || pairs < threads) return 2;
    pairs_per_thread = pairs / threads;
    pthread_t t[256];
    for (long i = 0; i < threads; ++i)
        pthread_create(&t[i], NULL, worker, (void*)i);
    long total = 0;
    for (int i = 0; i < threads; ++i) {
        void* r;
        pthread_join(t[i], &r);
        total += (long)r;
    }
    printf("%ld\n", total);
    return 0;
}
