// A block's old owner writes it in an event that lasts across its free and its reuse by
// another thread. Main hands a block to a writer (a semaphore), frees it without waiting for
// the writer, and a third thread gets the same bytes back from the allocator (one arena,
// blocks too large for the thread caches) and fills them. The writer, which only ever acquired
// the block before the free, spins on a relaxed flag (which orders nothing) and then writes
// through its pointer: that event began before the reuse and ends after it. Ordered neither
// before the free nor after the allocation, it races with both: with the free in the bytes'
// old lifetime, with the new owner in the new one (DESIGN-NOTES "Lifetimes of reused memory").
// Before, the event was in the new lifetime only and its race with the free was lost.
#include <malloc.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kSize = 8192 };

static sem_t ready, freed; // the new owner allocates after main's free
static sem_t handed;
static char* block;
static atomic_int reused;
static atomic_int spinning; // the writer's long event has begun (relaxed: orders nothing)

static void* writer(void* arg) {
    (void)arg;
    sem_wait(&handed);
    char* mine = block;
    atomic_store_explicit(&spinning, 1, memory_order_relaxed);
    while (atomic_load_explicit(&reused, memory_order_relaxed) == 0) {
    }
    mine[100] = 7; // RACE
    return NULL;
}

static void* new_owner(void* arg) {
    // The thread's first malloc allocates its cache, not from the freed block (volatile: an
    // optimizer drops a malloc freed at once).
    void* volatile warm = malloc(16);
    free(warm);
    sem_post(&ready);
    sem_wait(&freed);
    char* got = malloc(kSize); // RACE (its allocation, with the late write)
    memset(got, 2, kSize);     // RACE
    *(char**)arg = got;
    atomic_store_explicit(&reused, 1, memory_order_relaxed);
    return NULL;
}

int main(void) {
    mallopt(M_ARENA_MAX, 1);
    sem_init(&handed, 0, 0);
    sem_init(&ready, 0, 0);
    sem_init(&freed, 0, 0);
    block = malloc(kSize);
    char* fence = malloc(64); // keeps the freed block away from the top chunk
    memset(block, 1, kSize);
    pthread_t w, n;
    char* got = NULL;
    pthread_create(&w, NULL, writer, NULL);
    pthread_create(&n, NULL, new_owner, &got);
    sem_wait(&ready);
    sem_post(&handed);
    while (atomic_load_explicit(&spinning, memory_order_relaxed) == 0) {
    }
    char* const old = block;
    free(block); // RACE (the free writes the block)
    sem_post(&freed);
    pthread_join(n, NULL);
    pthread_join(w, NULL);
    printf("%s\n", got == old ? "reused" : "moved");
    free(got);
    free(fence);
    return 0;
}
