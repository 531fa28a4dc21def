// mremap with MREMAP_MAYMOVE moves a mapping when it cannot grow in place: the old range is
// unmapped, and main's later mappings get it back from the kernel. The mapping thread signals
// main with a relaxed flag only: the kernel maps the range again only after the move, so main's
// use of it starts a new lifetime of the bytes, as after munmap. A reader that looked at the
// mapping before the move is ordered before it (a release/acquire flag); a mapping shrunk in
// place gives its tail back the same way.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { kSmall = 1 << 16, kLarge = 1 << 20, kMaps = 32 };

static char* _Atomic shared;
static atomic_int looked, moved;
static char* _Atomic grown;

static void* reader(void* arg) {
    (void)arg;
    char* p;
    while ((p = atomic_load_explicit(&shared, memory_order_acquire)) == NULL)
        usleep(100);
    const int first = p[100];
    atomic_store_explicit(&looked, 1, memory_order_release);
    return (void*)(long)first;
}

static void* mapper(void* arg) {
    (void)arg;
    char* p = mmap(NULL, kSmall, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    memset(p, 1, kSmall);
    atomic_store_explicit(&shared, p, memory_order_release);
    while (!atomic_load_explicit(&looked, memory_order_acquire))
        usleep(100);
    char* q = mremap(p, kSmall, kLarge, MREMAP_MAYMOVE);
    if (q == MAP_FAILED) return NULL;
    q[kLarge - 1] = 2;
    char* r = mremap(q, kLarge, kSmall, 0); // shrinks in place: the tail is unmapped
    if (r != MAP_FAILED) r[0] = 3;
    atomic_store_explicit(&grown, r, memory_order_relaxed);
    atomic_store_explicit(&moved, 1, memory_order_relaxed);
    return NULL;
}

int main(void) {
    pthread_t m, r;
    pthread_create(&r, NULL, reader, NULL);
    pthread_create(&m, NULL, mapper, NULL);
    while (!atomic_load_explicit(&moved, memory_order_relaxed))
        usleep(100);
    // The kernel places these where the mapper's old ranges were.
    long sum = 0;
    for (int i = 0; i < kMaps; ++i) {
        char* p = mmap(NULL, kSmall, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) break;
        memset(p, 4, kSmall);
        sum += p[kSmall / 2];
    }
    void* first;
    pthread_join(m, NULL);
    pthread_join(r, &first);
    printf("%ld %ld\n", sum, (long)first);
    return 0;
}
