// A pvalloc block main frees while a worker still writes it (see pvalloc-reuse.c): the free is
// a write of the block, unordered with the worker's writes (main waits on a relaxed flag only;
// clang 14 ThreadSanitizer: the same race, 3 runs).
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { kBytes = 8192 };
static atomic_int wrote;
static char* block;

static void* worker(void* arg) {
    (void)arg;
    memset(block, 1, kBytes); // RACE
    atomic_store_explicit(&wrote, 1, memory_order_relaxed);
    return NULL;
}

int main(void) {
    block = pvalloc(kBytes);
    if (block == NULL) return 1;
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    while (!atomic_load_explicit(&wrote, memory_order_relaxed))
        usleep(100);
    free(block); // RACE
    pthread_join(t, NULL);
    printf("freed\n");
    return 0;
}
