// The shape of LLVM's tsan/stress.cpp (DESIGN-NOTES "Atomic-only pairs over the budget"): one
// thread release-stores a counter, two update it with acq_rel RMWs, so an RMW is unordered with
// every later store and its events conflict atomically with two other threads; two more
// threads race on a plain variable. `e2e.cli.atomic-pair-budget` analyzes it with no budget
// for those pairs and with the default one: the same race.
#include <pthread.h>
#include <stdio.h>

enum { kRounds = 2000 };
static long atomic_counter;
static long racy;

static void* storer(void* arg) {
    (void)arg;
    for (long i = 0; i < kRounds; i++)
        __atomic_store_n(&atomic_counter, i, __ATOMIC_RELEASE);
    return NULL;
}

static void* updater(void* arg) {
    (void)arg;
    long sink = 0;
    for (long i = 0; i < kRounds; i++)
        sink += __atomic_fetch_add(&atomic_counter, 1, __ATOMIC_ACQ_REL);
    return (void*)sink;
}

static void* racer(void* arg) {
    (void)arg;
    for (long i = 0; i < kRounds; i++) {
        racy++; // RACE
        __atomic_fetch_add(&atomic_counter, 1, __ATOMIC_ACQ_REL);
    }
    return NULL;
}

int main(void) {
    pthread_t t[5];
    void* (*start[5])(void*) = {storer, updater, updater, racer, racer};
    for (int i = 0; i < 5; i++)
        pthread_create(&t[i], NULL, start[i], NULL);
    for (int i = 0; i < 5; i++)
        pthread_join(t[i], NULL);
    printf("%ld %ld\n", atomic_counter, racy);
    return 0;
}
