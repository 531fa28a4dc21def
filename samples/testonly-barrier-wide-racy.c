// ThreadSanitizer's test-only "invisible" barrier with more than 255 threads (compiler-rt's
// lots_of_threads.c): 300 workers and main meet at it twice. The barrier orders execution but
// creates no happens-before, so the last worker's write before it and main's write after it
// race although they never overlap in time (the barrier once kept only 8 bits of the thread
// count: 301 threads hung).
#include <pthread.h>
#include <stdio.h>

typedef unsigned invisible_barrier_t;
void __tsan_testonly_barrier_init(invisible_barrier_t* barrier, unsigned count);
void __tsan_testonly_barrier_wait(invisible_barrier_t* barrier);

enum { kWorkers = 300 };
static invisible_barrier_t barrier;
static long slot[kWorkers];
static long shared;

static void* worker(void* arg) {
    const long i = (long)arg;
    slot[i] = i + 1;
    if (i == kWorkers - 1) shared = i; // RACE
    __tsan_testonly_barrier_wait(&barrier);
    __tsan_testonly_barrier_wait(&barrier);
    return NULL;
}

int main(void) {
    __tsan_testonly_barrier_init(&barrier, kWorkers + 1);
    pthread_t threads[kWorkers];
    for (long i = 0; i < kWorkers; ++i)
        pthread_create(&threads[i], NULL, worker, (void*)i);
    __tsan_testonly_barrier_wait(&barrier);
    __tsan_testonly_barrier_wait(&barrier);
    shared = -1; // RACE
    long sum = 0;
    for (int i = 0; i < kWorkers; ++i) {
        pthread_join(threads[i], NULL);
        sum += slot[i];
    }
    printf("%ld %ld\n", sum, shared);
    return 0;
}
