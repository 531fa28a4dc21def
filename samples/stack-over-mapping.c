// A thread's stack where a mapping was. A thread maps 16 MiB + 4 KiB, writes its top and
// unmaps it; main, which only slept meanwhile (nothing orders it after the unmapping), creates
// a thread with a 16 MiB stack, which glibc maps afresh in its own code (no cached stack of
// that size) where the kernel finds the hole: the new thread's frames and the old mapping's
// writes are different memory in time (firstrace before: a race between them; clang 14
// ThreadSanitizer: no race).
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>

// The mapping is as long as the stack block with its guard page: not a multiple of 2 MiB, which
// the kernel would align for huge pages elsewhere.
enum { kStack = 16 << 20, kMap = kStack + 4096 };

static volatile char* volatile escaped; // the frame escapes: its accesses are instrumented

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
    escaped = frame;
    for (unsigned i = 0; i < sizeof frame; i += 64)
        frame[i] = (char)(long)arg;
    return (void*)(long)frame[4096];
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
    void* r = NULL;
    pthread_join(d, &r);
    pthread_join(m, NULL);
    printf("%ld\n", (long)r);
    return 0;
}
