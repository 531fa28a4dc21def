// Heap bytes that the allocator hands out again in other shapes: a block freed by one thread
// is split, its second half going to another thread, and two adjacent blocks freed by one
// thread come back as one block to another. The only ordering is the allocator's (C11
// 7.22.3p2: a deallocation synchronizes with the next allocation of the same memory); the
// flag that tells main when to allocate is relaxed and orders nothing. With one arena
// (M_ARENA_MAX) all threads allocate from glibc's main arena, so the reuse is deterministic.
// The racy variant: the split worker writes through its stale pointer after the free, into
// the bytes main now owns (a use after free: nothing orders it with main's writes). It writes
// once main has reallocated them (a relaxed flag, which orders nothing): a reuse starts a new
// lifetime of the bytes, and a use after free that happens before the reuse belongs to the old
// one, after the free in the worker's order, so it races with nothing (as in ThreadSanitizer,
// which resets the bytes' history at the reuse; DESIGN-NOTES "Lifetimes of reused memory").
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kWhole = 8192, kHalf = 4000 };

static atomic_int step;
static atomic_int reused;    // main has the freed bytes back
static char* kept_half;      // the first half of the split block stays with the worker
static char* volatile stale; // the freed block's address, kept (the compiler cannot drop the write)

static void* split_worker(void* arg) {
    char* block = arg;
    memset(block, 1, kWhole); // the whole block, before its free
    stale = block;
    free(block);
    kept_half = malloc(kHalf); // the front of the freed block; the rest stays free
    memset(kept_half, 2, kHalf);
    atomic_store_explicit(&step, 1, memory_order_relaxed);
    while (atomic_load_explicit(&reused, memory_order_relaxed) == 0) {
    }
    stale[kWhole / 2 + 100] = 7; // RACE
    return NULL;
}

static void* coalesce_worker(void* arg) {
    char** blocks = arg;
    memset(blocks[0], 3, kHalf);
    memset(blocks[1], 4, kHalf);
    free(blocks[0]);
    free(blocks[1]); // merges with the chunk of blocks[0]
    atomic_store_explicit(&step, 2, memory_order_relaxed);
    return NULL;
}

static void wait_for(int value) {
    while (atomic_load_explicit(&step, memory_order_relaxed) != value) {
    }
}

int main(void) {
    mallopt(M_ARENA_MAX, 1);
    long sum = 0;

    // 1. Split: the worker's free gives back kWhole bytes, it takes the front back itself, and
    //    main gets the rest (a block starting where no freed block started).
    char* whole = malloc(kWhole);
    char* fence1 = malloc(64); // keeps the freed block away from the top chunk
    pthread_t a;
    pthread_create(&a, NULL, split_worker, whole);
    wait_for(1);
    char* rest = malloc(kHalf); // RACE (its allocation, with the stale write)
    atomic_store_explicit(&reused, 1, memory_order_relaxed);
    memset(rest, 5, kHalf); // RACE
    sum += rest[kHalf - 1];

    // 2. Coalesce: two blocks freed by the worker come back to main as one.
    char* pair[2];
    pair[0] = malloc(kHalf);
    pair[1] = malloc(kHalf);
    char* fence2 = malloc(64);
    pthread_t b;
    pthread_create(&b, NULL, coalesce_worker, pair);
    wait_for(2);
    char* both = malloc(2 * kHalf);
    memset(both, 6, 2 * kHalf);
    sum += both[2 * kHalf - 1];

    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld %s %s\n", sum, rest + kHalf > whole && rest < whole + kWhole ? "split" : "moved",
           both == pair[0] ? "coalesced" : "moved");
    free(kept_half);
    free(rest);
    free(both);
    free(fence1);
    free(fence2);
    return 0;
}
