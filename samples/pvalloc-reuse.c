// A block a worker wrote and freed, reused by main's pvalloc (glibc's page-rounded valloc): the
// allocation gets bytes only after their free, so main's use of the new block is a new variable
// (main learns of the free through a relaxed flag only, which orders nothing). firstrace before:
// pvalloc was not interposed, so the reuse was not seen: a race between the worker's memset
// and main's; clang 14 ThreadSanitizer: no race.
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { kBytes = 8192 };
static atomic_int freed;
static char* block;

static void* worker(void* arg) {
    (void)arg;
    memset(block, 1, kBytes);
    free(block);
    atomic_store_explicit(&freed, 1, memory_order_relaxed);
    return NULL;
}

int main(void) {
    block = valloc(kBytes); // page-aligned, so that pvalloc can get it back
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    while (!atomic_load_explicit(&freed, memory_order_relaxed))
        usleep(100);
    char* mine = pvalloc(kBytes);
    if (mine == NULL) return 1;
    memset(mine, 9, kBytes);
    printf("%d\n", mine[5]);
    free(mine);
    pthread_join(t, NULL);
    return 0;
}
