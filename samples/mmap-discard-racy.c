// madvise(MADV_DONTNEED) discards a mapping's contents (see mmap-discard.c), here while a
// worker is still filling it: main waits only for a relaxed flag the worker sets before its
// fill, so the discard and the fill race (firstrace before: madvise was no access; clang 14
// ThreadSanitizer misses it too).
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

enum { kBytes = 1 << 16 };
static char* table;
static atomic_int started;

static void* fill(void* arg) {
    atomic_store_explicit(&started, 1, memory_order_relaxed);
    memset(table, (int)(long)arg, 8192); // RACE
    return NULL;
}

int main(void) {
    table = mmap(NULL, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (table == MAP_FAILED) return 1;
    pthread_t t;
    pthread_create(&t, NULL, fill, (void*)7L);
    while (!atomic_load_explicit(&started, memory_order_relaxed))
        ;
    madvise(table, kBytes, MADV_DONTNEED); // RACE BUG in main
    pthread_join(t, NULL);
    printf("after the join %d\n", table[100]);
    return 0;
}
