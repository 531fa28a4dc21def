// A mapping where a dead thread's stack was (see mmap-over-stack.c), handed to main through a
// relaxed atomic only: main's write of the new mapping races with the mapping's write of its
// range (a new lifetime of those bytes starts at the mmap, and the race is inside it). clang 14
// ThreadSanitizer does not report it (3 runs): for a mapping this large it resets the range's
// shadow instead of writing it.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

// The mapping is as long as the stack block with its guard page: not a multiple of 2 MiB, which
// the kernel would align for huge pages elsewhere.
enum { kBig = 64 << 20, kMap = kBig + 4096 };
static _Atomic(char*) published;

static volatile char* volatile escaped; // the frame escapes: its accesses are instrumented

static void* deep(void* arg) {
    volatile char frame[1 << 16];
    escaped = frame;
    for (unsigned i = 0; i < sizeof frame; i += 64)
        frame[i] = (char)(long)arg;
    return (void*)(long)frame[4096];
}

static void* mapper(void* arg) {
    (void)arg;
    const struct timespec pause = {0, 200 * 1000 * 1000};
    nanosleep(&pause, NULL);
    char* p = mmap(NULL, kMap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, // RACE
                   -1, 0);
    if (p == MAP_FAILED) p = NULL;
    atomic_store_explicit(&published, p, memory_order_relaxed);
    return NULL;
}

int main(void) {
    pthread_t m, d;
    pthread_create(&m, NULL, mapper, NULL);
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
    p[kMap - 1] = 2; // RACE
    pthread_join(m, NULL);
    munmap(p, kMap);
    printf("%ld\n", (long)r);
    return 0;
}
