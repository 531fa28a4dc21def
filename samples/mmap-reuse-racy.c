// A mapping read by a thread and unmapped by main with nothing in between but a relaxed flag
// (which orders nothing): munmap writes the whole range, so the read races with it.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
enum { kSize = 1 << 16 };
static atomic_int done;
static char* mapping;
static int seen;
static void* reader(void* arg) {
    (void)arg;
    seen = mapping[kSize / 2]; // RACE
    atomic_store_explicit(&done, 1, memory_order_relaxed);
    return NULL;
}
int main(void) {
    mapping = mmap(NULL, kSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) return 1;
    memset(mapping, 3, kSize);
    pthread_t t;
    pthread_create(&t, NULL, reader, NULL);
    while (atomic_load_explicit(&done, memory_order_relaxed) == 0) {
    }
    munmap(mapping, kSize); // RACE
    pthread_join(t, NULL);
    printf("%d\n", seen);
    return 0;
}
