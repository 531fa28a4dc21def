// Atomics of a thread that is alone: main takes a hand-made spin lock (compare-exchange with
// acquire, store with release) and sets a release/acquire flag thousands of times before any
// thread exists and again after joining every worker; the workers of two rounds use the same
// two atomics, a producer publishing a value through the flag and both updating a total under
// the spin lock. The runtime records nothing for the atomics of a thread that is alone (every
// edge they would give is implied by the creations and joins; DESIGN-NOTES "Real programs,
// seventeenth session"), and the workers' operations must still pair with each other's:
// race-free.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

enum { kSize = 64, kAloneTurns = 5000 };
static atomic_int lock_word;
static atomic_int ready;
static int table[kSize];
static int handoff;
static long total;
static int round_id;

static void lock(void) {
    int expected;
    do
        expected = 0;
    while (!atomic_compare_exchange_weak_explicit(&lock_word, &expected, 1, memory_order_acquire,
                                                  memory_order_relaxed));
}
static void unlock(void) {
    atomic_store_explicit(&lock_word, 0, memory_order_release);
}

static void* producer(void* arg) {
    (void)arg;
    handoff = 40 + round_id;
    atomic_store_explicit(&ready, round_id, memory_order_release);
    lock();
    total += 1;
    unlock();
    return NULL;
}

static void* consumer(void* arg) {
    (void)arg;
    while (atomic_load_explicit(&ready, memory_order_acquire) != round_id)
        ;
    const int v = handoff;
    lock();
    total += v + table[round_id];
    unlock();
    return NULL;
}

static void alone_phase(int base) {
    for (int i = 0; i < kAloneTurns; ++i) {
        lock();
        table[i % kSize] = base + i;
        unlock();
        atomic_store_explicit(&ready, 0, memory_order_release);
        (void)atomic_load_explicit(&ready, memory_order_acquire);
    }
    handoff = 0;
}

static void round_of_workers(int id) {
    round_id = id;
    pthread_t p, c;
    pthread_create(&c, NULL, consumer, NULL);
    pthread_create(&p, NULL, producer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
}

int main(void) {
    alone_phase(0);
    round_of_workers(1);
    alone_phase(100);
    round_of_workers(2);
    printf("%ld\n", total);
    return 0;
}
