// A thread maps anonymous memory, writes it and unmaps it; main then maps memory that the
// kernel may place at the same address and writes it. munmap comes before the mmap that
// reuses the range, whatever else orders the threads (the flag is relaxed: nothing).
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
enum { kSize = 1 << 16 };
static atomic_int done;
static void* worker(void* arg) {
    (void)arg;
    char* p = mmap(NULL, kSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    memset(p, 1, kSize);
    munmap(p, kSize);
    atomic_store_explicit(&done, 1, memory_order_relaxed);
    return NULL;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    while (atomic_load_explicit(&done, memory_order_relaxed) == 0) {
    }
    char* q = mmap(NULL, kSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (q == MAP_FAILED) return 1;
    memset(q, 2, kSize);
    int v = q[kSize - 1];
    munmap(q, kSize);
    pthread_join(t, NULL);
    printf("%d\n", v);
    return 0;
}
