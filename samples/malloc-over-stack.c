// A large heap block where a dead thread's stack was (see mmap-over-stack.c): glibc's malloc
// maps a block above its mmap threshold (128 KiB) in its own code. A thread with a 64 MiB stack
// writes it and is joined (glibc unmaps the stack, unseen); a thread that only slept then
// mallocs a block whose mapping is exactly that long (64 MiB + 4 KiB with the chunk's size field),
// which the kernel places in the hole: the allocation's write of the block and the dead
// thread's stack writes are different memory in time (firstrace before: a race between them;
// clang 14 ThreadSanitizer: no race).
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

// The mapping is as long as the stack block with its guard page: not a multiple of 2 MiB, which
// the kernel would align for huge pages elsewhere. glibc maps the request rounded up to 16 bytes
// with its 8-byte size field, rounded up to pages.
enum { kBig = 64 << 20, kBlock = kBig + 4096 - 32 };

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
    char* p = malloc(kBlock);
    if (p == NULL) return NULL;
    p[kBlock - 1] = 1;
    long v = p[kBlock - 1];
    free(p);
    return (void*)v;
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
    void* allocated = NULL;
    pthread_join(a, &allocated);
    printf("%ld %ld\n", (long)r, (long)allocated);
    return 0;
}
