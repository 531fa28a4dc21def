// Release sequences (C11 7.17.4, C++20 [intro.races]): an acquire that reads a value written by
// an RMW in the release sequence headed by a release A synchronizes with A, whatever the RMW's
// memory order and thread.
//  1. A relaxed RMW chain between a release store and an acquire: the producer publishes
//     `data` with a release store, a relay thread adds to the flag with a relaxed fetch_add,
//     main's acquire load reads the relay's value: ordered after the producer's write.
//  2. Release RMWs by several threads: each worker fills its slot and counts itself with a
//     release fetch_add; main's acquire load of the final count synchronizes with every one
//     of them (each heads a release sequence that the later RMWs continue).
//  3. A release fence before a relaxed RMW that continues another release's sequence.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

enum { kWorkers = 3 };

static int data;
static atomic_int flag;
static int slots[kWorkers + 1];
static atomic_int done;

static void* producer(void* arg) {
    (void)arg;
    data = 42;
    atomic_store_explicit(&flag, 1, memory_order_release);
    return NULL;
}

static void* relay(void* arg) {
    (void)arg;
    while (atomic_load_explicit(&flag, memory_order_relaxed) == 0) {
    }
    atomic_fetch_add_explicit(&flag, 1, memory_order_relaxed); // continues the sequence
    return NULL;
}

static void* worker(void* arg) {
    const int i = (int)(long)arg;
    slots[i] = i * 10;
    if (i == kWorkers) {
        // the last worker orders its slot with a release fence and a relaxed RMW
        atomic_thread_fence(memory_order_release);
        atomic_fetch_add_explicit(&done, 1, memory_order_relaxed);
    } else {
        atomic_fetch_add_explicit(&done, 1, memory_order_release);
    }
    return NULL;
}

int main(void) {
    pthread_t p, r, w[kWorkers + 1];
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&r, NULL, relay, NULL);
    for (long i = 0; i <= kWorkers; ++i)
        pthread_create(&w[i], NULL, worker, (void*)i);

    while (atomic_load_explicit(&flag, memory_order_relaxed) != 2) {
    }
    if (atomic_load_explicit(&flag, memory_order_acquire) == 2) // reads the relay's RMW
        printf("data %d\n", data);

    while (atomic_load_explicit(&done, memory_order_relaxed) != kWorkers + 1) {
    }
    int sum = 0;
    if (atomic_load_explicit(&done, memory_order_acquire) == kWorkers + 1)
        for (int i = 0; i <= kWorkers; ++i)
            sum += slots[i];
    printf("sum %d\n", sum);

    pthread_join(p, NULL);
    pthread_join(r, NULL);
    for (int i = 0; i <= kWorkers; ++i)
        pthread_join(w[i], NULL);
    return 0;
}
