// A thread's stack where a mapping was (see stack-over-mapping.c); the new thread hands a
// frame of its stack to main through a relaxed atomic and waits for main's write: main's write
// and the thread's own write of that frame race (a new lifetime of the block starts at the
// thread's start, and the race is inside it; clang 14 ThreadSanitizer reports it too).
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>

// The mapping is as long as the stack block with its guard page (see stack-over-mapping.c).
enum { kStack = 16 << 20, kMap = kStack + 4096 };

static _Atomic(volatile char*) published;
static atomic_int written;
static pthread_mutex_t main_only = PTHREAD_MUTEX_INITIALIZER;

static void* mapper(void* arg) {
    (void)arg;
    char* p = mmap(NULL, kMap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    for (unsigned i = kMap - (1 << 16); i < kMap; i += 64)
        p[i] = 1;
    munmap(p, kMap);
    return NULL;
}

static void* deep(void* arg) {
    volatile char frame[1 << 16];
    frame[0] = (char)(long)arg; // RACE
    atomic_store_explicit(&published, frame, memory_order_relaxed);
    while (!atomic_load_explicit(&written, memory_order_relaxed)) {
    }
    return (void*)(long)frame[0]; // RACE
}

int main(void) {
    pthread_t m, d;
    pthread_create(&m, NULL, mapper, NULL);
    const struct timespec pause = {0, 200 * 1000 * 1000};
    nanosleep(&pause, NULL);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, kStack);
    pthread_create(&d, &attr, deep, (void*)7L);
    pthread_attr_destroy(&attr);
    volatile char* frame;
    while ((frame = atomic_load_explicit(&published, memory_order_relaxed)) == NULL) {
    }
    // A lock only main takes: main's write is in an event that begins after the thread started
    // (else that event, begun before the new lifetime, would count in the old one as well).
    pthread_mutex_lock(&main_only);
    pthread_mutex_unlock(&main_only);
    frame[0] = 2; // RACE
    atomic_store_explicit(&written, 1, memory_order_relaxed);
    void* r = NULL;
    pthread_join(d, &r);
    pthread_join(m, NULL);
    printf("%ld\n", (long)r);
    return 0;
}
