// A fresh anonymous mapping handed to a thread through a relaxed store, which orders nothing:
// the mapping is a write of its whole range (it gives the memory its contents), so the
// thread's write into it races with the mmap (ThreadSanitizer reports the same race).
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/mman.h>

enum { kSize = 1 << 16 };
static _Atomic(int*) published;

static void* user(void* arg) {
    (void)arg;
    int* p;
    while ((p = atomic_load_explicit(&published, memory_order_relaxed)) == NULL) {
    }
    p[kSize / sizeof(int) / 2] = 7; // RACE
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, user, NULL);
    int* p = mmap(NULL, kSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); // RACE
    if (p == MAP_FAILED) return 1;
    atomic_store_explicit(&published, p, memory_order_relaxed);
    pthread_join(t, NULL);
    printf("%d\n", p[kSize / sizeof(int) / 2]);
    munmap(p, kSize);
    return 0;
}
