// Fresh anonymous mappings handed to a thread: a mapping gives its memory its contents (zeros),
// so it is a write of the whole range. Published with a release store, the thread's use is
// ordered after the mmap; a mapping made inside ignored writes (AnnotateIgnoreWritesBegin, the
// ThreadSanitizer annotation API) is no access even when published with a relaxed store.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/mman.h>

void AnnotateIgnoreWritesBegin(const char* file, int line);
void AnnotateIgnoreWritesEnd(const char* file, int line);

enum { kSmall = 4096, kLarge = 1 << 20 };
static _Atomic(int*) published;
static _Atomic(int*) published_ignored;
static atomic_int done;

static void* user(void* arg) {
    (void)arg;
    int* p;
    while ((p = atomic_load_explicit(&published, memory_order_acquire)) == NULL) {
    }
    p[0] = 7;
    p[kLarge / sizeof(int) - 1] = 8;
    while ((p = atomic_load_explicit(&published_ignored, memory_order_relaxed)) == NULL) {
    }
    p[1] = 9;
    atomic_store_explicit(&done, 1, memory_order_release);
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, user, NULL);
    int* p = mmap(NULL, kLarge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return 1;
    atomic_store_explicit(&published, p, memory_order_release);
    AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
    int* q = mmap(NULL, kSmall, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
    if (q == MAP_FAILED) return 1;
    atomic_store_explicit(&published_ignored, q, memory_order_relaxed);
    pthread_join(t, NULL);
    printf("%d %d %d\n", p[0], p[kLarge / sizeof(int) - 1], q[1]);
    munmap(p, kLarge);
    munmap(q, kSmall);
    return 0;
}
