// alone-atomics.c with the second round's consumer waiting for the flag with a relaxed load: it
// reads the value the producer wrote before its release without being ordered after it. The
// atomics main used while it was alone (not recorded) must neither hide this race nor add one
// with main's own writes of the value (ordered before the workers by their creation).
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
    handoff = 40 + round_id; // RACE
    atomic_store_explicit(&ready, round_id, memory_order_release);
    lock();
    total += 1;
    unlock();
    return NULL;
}

static void* consumer(void* arg) {
    (void)arg;
    const memory_order order = round_id == 2 ? memory_order_relaxed : memory_order_acquire;
    while (atomic_load_explicit(&ready, order) != round_id)
        ;
    const int v = handoff; // RACE
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
