// The workers of barrier-serial-destroy.c meet without main, and main destroys the barrier as
// soon as a relaxed flag, set by the serial thread after its wait, says the round is over: main
// took no part in the round and nothing orders its destroy after the workers' arrivals, so it
// races with their waits' reads of the barrier.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

enum { kWorkers = 4 };
static pthread_barrier_t barrier;
static atomic_int round_over;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int total;

static void* worker(void* arg) {
    (void)arg;
    if (pthread_barrier_wait(&barrier) == PTHREAD_BARRIER_SERIAL_THREAD) // RACE
        atomic_store_explicit(&round_over, 1, memory_order_relaxed);
    pthread_mutex_lock(&lock);
    total += 1;
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(void) {
    if (pthread_barrier_init(&barrier, NULL, kWorkers) != 0) return 1;
    pthread_t threads[kWorkers];
    for (int i = 0; i < kWorkers; ++i)
        pthread_create(&threads[i], NULL, worker, NULL);
    while (!atomic_load_explicit(&round_over, memory_order_relaxed)) {
    }
    pthread_barrier_destroy(&barrier); // RACE
    for (int i = 0; i < kWorkers; ++i)
        pthread_join(threads[i], NULL);
    printf("%d\n", total);
    return 0;
}
