// Heap blocks handed to another thread through an atomic pointer: main allocates a block
// (malloc, calloc) and publishes it with a release store; the worker takes it with an acquire
// load and fills it. Allocation modifies the block's storage (C++11 [new.delete.dataraces]:
// malloc, calloc and operator new "behave as though they accessed and modified only the storage
// referenced by the return value"), and the release/acquire pair orders it before the
// worker's writes.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static _Atomic(int*) handed;
static _Atomic(long*) zeroed;

static void* worker(void* arg) {
    (void)arg;
    int* p;
    while ((p = atomic_load_explicit(&handed, memory_order_acquire)) == NULL) {
    }
    long* z;
    while ((z = atomic_load_explicit(&zeroed, memory_order_acquire)) == NULL) {
    }
    p[0] = 42;
    z[1] += 7;
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    int* p = malloc(4 * sizeof *p);
    atomic_store_explicit(&handed, p, memory_order_release);
    long* z = calloc(4, sizeof *z);
    atomic_store_explicit(&zeroed, z, memory_order_release);
    pthread_join(t, NULL);
    printf("%d %ld\n", p[0], z[1]);
    free(p);
    free(z);
    return 0;
}
