// Long runs of the same release on one atomic with nothing in between (a seq_cst counter in a
// tight loop, a reference count dropped twice in a row): the tracer writes the first release of
// such a run and none of the repeats (a loop of 10^6 increments is a few records, not 10^6),
// and the acquires that read any value of the run are still ordered after all that came before
// it. Main reads the payload after seeing the last tick; the last reference's owner frees the
// object after the worker's two drops (the free is a write of the whole block, counter too).
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

enum { kTicks = 1000000 };
static atomic_long ticks;
static long payload[4];

struct object {
    atomic_int refs;
    int value;
};
static struct object* shared;

static void* worker(void* arg) {
    (void)arg;
    for (int i = 0; i < 4; ++i)
        payload[i] = i + 1;
    for (int i = 0; i < kTicks; ++i)
        atomic_fetch_add(&ticks, 1); // seq_cst: a release each time
    int seen = shared->value;
    atomic_fetch_sub_explicit(&shared->refs, 1, memory_order_acq_rel);
    atomic_fetch_sub_explicit(&shared->refs, 1, memory_order_acq_rel);
    return (void*)(long)seen;
}

int main(void) {
    shared = malloc(sizeof *shared);
    shared->value = 7;
    atomic_init(&shared->refs, 3);
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    while (atomic_load_explicit(&ticks, memory_order_acquire) < kTicks) {
    }
    long sum = payload[0] + payload[1] + payload[2] + payload[3];
    while (atomic_load_explicit(&shared->refs, memory_order_relaxed) != 1) {
    }
    if (atomic_fetch_sub_explicit(&shared->refs, 1, memory_order_acq_rel) == 1) free(shared);
    void* seen;
    pthread_join(t, &seen);
    printf("%ld %ld\n", sum, (long)seen);
    return 0;
}
