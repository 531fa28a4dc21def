// ThreadSanitizer's atomic interface called by the program (see tsan-atomic-interface.c), with
// a relaxed store and load of the flag: they order nothing, so the message races (clang 14
// ThreadSanitizer: the same race, 3 runs).
#include <pthread.h>
#include <stdio.h>

#include <sanitizer/tsan_interface_atomic.h>

static int message;
static __tsan_atomic32 ready;

static void* producer(void* arg) {
    (void)arg;
    message = 42; // RACE
    __tsan_atomic32_store(&ready, 1, __tsan_memory_order_relaxed);
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, producer, NULL);
    while (__tsan_atomic32_load(&ready, __tsan_memory_order_relaxed) == 0) {
    }
    printf("%d\n", message); // RACE
    pthread_join(t, NULL);
    return 0;
}
