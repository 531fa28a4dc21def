// ThreadSanitizer's atomic interface called by the program (<sanitizer/tsan_interface_atomic.h>:
// clang ships the header; firstrace-cc gives gcc its own, declared as gcc's built-ins of the same
// names): a message handed over by a release store and an acquire load of a flag, as compiler-rt's
// interface_atomic_test does. The runtime's functions are the ones the compilers call for
// atomics, with the same model (clang 14 ThreadSanitizer: no race, 3 runs).
#include <pthread.h>
#include <stdio.h>

#include <sanitizer/tsan_interface_atomic.h>

static int message;
static __tsan_atomic32 ready;

static void* producer(void* arg) {
    (void)arg;
    message = 42;
    __tsan_atomic32_store(&ready, 1, __tsan_memory_order_release);
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, producer, NULL);
    while (__tsan_atomic32_load(&ready, __tsan_memory_order_acquire) == 0) {
    }
    printf("%d\n", message);
    __tsan_atomic32 expected = 1;
    if (!__tsan_atomic32_compare_exchange_strong(&ready, &expected, 2, __tsan_memory_order_acq_rel,
                                                 __tsan_memory_order_relaxed))
        return 1;
    pthread_join(t, NULL);
    return 0;
}
