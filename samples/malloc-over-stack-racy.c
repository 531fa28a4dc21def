// A large heap block where a dead thread's stack was (see malloc-over-stack.c), handed to main
// through a relaxed atomic only: main's write of the block races with the allocation's write of
// it (C++11 [new.delete.dataraces]; a new lifetime of those bytes starts at the allocation, and
// the race is inside it; clang 14 ThreadSanitizer reports it too).
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

// The mapping is as long as the stack block with its guard page (see malloc-over-stack.c).
enum { kBig = 64 << 20, kBlock = kBig + 4096 - 32 };
static _Atomic(char*) published;

static volatile char* volatile escaped; // the frame escapes: its accesses are instrumented

static void* deep(void* arg) {
    volatile char frame[1 << 16];
    escaped = frame;
    for (unsigned i = 0; i < sizeof frame; i += 64)
        frame[i] = (char)(long)arg;
    return (void*)(long)frame[4096];
}

static void* allocator(void* arg) {
    (void)arg;
    free(malloc(16)); // the thread's malloc arena (a 64 MiB mapping) is made now, not in the hole
    const struct timespec pause = {0, 200 * 1000 * 1000};
    nanosleep(&pause, NULL);
    char* p = malloc(kBlock); // RACE
    atomic_store_explicit(&published, p, memory_order_relaxed);
    return NULL;
}

int main(void) {
    pthread_t a, d;
    pthread_create(&a, NULL, allocator, NULL);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, kBig);
    pthread_create(&d, &attr, deep, (void*)7L);
    pthread_attr_destroy(&attr);
    void* r = NULL;
    pthread_join(d, &r);
    char* p;
    while ((p = atomic_load_explicit(&published, memory_order_relaxed)) == NULL) {
    }
    p[kBlock - 1] = 2; // RACE
    pthread_join(a, NULL);
    free(p);
    printf("%ld\n", (long)r);
    return 0;
}
