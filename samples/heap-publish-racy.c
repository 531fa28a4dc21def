// The heap blocks of heap-publish.c handed over with relaxed atomics: nothing orders the
// allocation (a modification of the block's storage, C++11 [new.delete.dataraces]) before
// the worker's writes (ThreadSanitizer's malloc_stack test).
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static _Atomic(int*) handed;
static _Atomic(long*) zeroed;

static void* worker(void* arg) {
    (void)arg;
    int* p;
    while ((p = atomic_load_explicit(&handed, memory_order_relaxed)) == NULL) {
    }
    long* z;
    while ((z = atomic_load_explicit(&zeroed, memory_order_relaxed)) == NULL) {
    }
    p[0] = 42; // RACE
    z[1] += 7; // RACE
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    int* p = malloc(4 * sizeof *p); // RACE
    atomic_store_explicit(&handed, p, memory_order_relaxed);
    long* z = calloc(4, sizeof *z); // RACE
    atomic_store_explicit(&zeroed, z, memory_order_relaxed);
    pthread_join(t, NULL);
    printf("%d %ld\n", p[0], z[1]);
    free(p);
    free(z);
    return 0;
}
