// A mapping where a dead thread's stack was. A thread with a 64 MiB stack (more than glibc's
// 40 MiB stack cache) writes its stack and ends; main's join makes glibc unmap that stack in
// its own code, unseen by any interposed munmap. A second thread, which nothing orders after
// the first one's end (it only sleeps), then maps 64 MiB, which the kernel places in the hole
// the stack left: the mapping's write of its range and the dead thread's stack writes are
// different memory in time, as for any new mapping (firstrace before: a race between them;
// clang 14 ThreadSanitizer resets a new mapping's shadow: no race).
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

// The mapping is as long as the stack block with its guard page: not a multiple of 2 MiB, which
// the kernel would align for huge pages elsewhere.
enum { kBig = 64 << 20, kMap = kBig + 4096 };

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
    char* p = mmap(NULL, kMap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    p[kMap - 1] = 1;
    long v = p[kMap - 1];
    munmap(p, kMap);
    return (void*)v;
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
    void* mapped = NULL;
    pthread_join(m, &mapped);
    printf("%ld %ld\n", (long)r, (long)mapped);
    return 0;
}
