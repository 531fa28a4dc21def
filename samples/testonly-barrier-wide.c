// ThreadSanitizer's test-only "invisible" barrier (compiler-rt's test.h) with more than 255
// threads, as compiler-rt's lots_of_threads.c uses it: 300 workers and main meet at it twice.
// The barrier orders execution but creates no happens-before; LLVM 14 keeps the thread count
// in the low 10 bits of the word (up to 1023). Each worker fills its own slot before the
// barriers; main reads the slots after joining the workers: no race.
#include <pthread.h>
#include <stdio.h>

typedef unsigned invisible_barrier_t;
void __tsan_testonly_barrier_init(invisible_barrier_t* barrier, unsigned count);
void __tsan_testonly_barrier_wait(invisible_barrier_t* barrier);

enum { kWorkers = 300 };
static invisible_barrier_t barrier;
static long slot[kWorkers];

static void* worker(void* arg) {
    const long i = (long)arg;
    slot[i] = i + 1;
    __tsan_testonly_barrier_wait(&barrier);
    __tsan_testonly_barrier_wait(&barrier); // a second episode of the same barrier
    return NULL;
}

int main(void) {
    __tsan_testonly_barrier_init(&barrier, kWorkers + 1);
    pthread_t threads[kWorkers];
    for (long i = 0; i < kWorkers; ++i)
        pthread_create(&threads[i], NULL, worker, (void*)i);
    __tsan_testonly_barrier_wait(&barrier);
    __tsan_testonly_barrier_wait(&barrier);
    long sum = 0;
    for (int i = 0; i < kWorkers; ++i) {
        pthread_join(threads[i], NULL);
        sum += slot[i];
    }
    printf("%ld\n", sum);
    return 0;
}
