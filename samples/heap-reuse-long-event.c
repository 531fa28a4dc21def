// A block's old owner writes it, then runs an event that lasts across the block's free and its
// reuse by another thread without touching it. Main hands a block to a writer (a semaphore),
// the writer fills it and says so (a second semaphore) before main frees it, and a third thread
// gets the same bytes back from the allocator (one arena, blocks too large for the thread
// caches; both threads exist before the free, whose creation allocates) and fills them. The writer
// then spins on a relaxed flag across the reuse and writes its own counter: an event that began
// before a reuse and ends after it keeps the bytes it touches in both lifetimes (DESIGN-NOTES
// "Lifetimes of reused memory"), and this one touches none of them: no race. The racy variant
// writes the block in that event.
#include <malloc.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kSize = 8192 };

static sem_t ready, freed; // the new owner allocates after main's free
static sem_t handed, written;
static char* block;
static atomic_int reused;
static atomic_int spinning; // the writer's long event has begun (relaxed: orders nothing)
static int spins;

static void* writer(void* arg) {
    (void)arg;
    sem_wait(&handed);
    block[100] = 7;
    sem_post(&written);
    atomic_store_explicit(&spinning, 1, memory_order_relaxed);
    while (atomic_load_explicit(&reused, memory_order_relaxed) == 0) {
    }
    ++spins;
    return NULL;
}

static void* new_owner(void* arg) {
    // The thread's first malloc allocates its cache, not from the freed block (volatile: an
    // optimizer drops a malloc freed at once).
    void* volatile warm = malloc(16);
    free(warm);
    sem_post(&ready);
    sem_wait(&freed);
    char* got = malloc(kSize);
    memset(got, 2, kSize);
    *(char**)arg = got;
    atomic_store_explicit(&reused, 1, memory_order_relaxed);
    return NULL;
}

int main(void) {
    mallopt(M_ARENA_MAX, 1);
    sem_init(&handed, 0, 0);
    sem_init(&ready, 0, 0);
    sem_init(&freed, 0, 0);
    sem_init(&written, 0, 0);
    block = malloc(kSize);
    char* fence = malloc(64); // keeps the freed block away from the top chunk
    memset(block, 1, kSize);
    pthread_t w, n;
    char* got = NULL;
    pthread_create(&w, NULL, writer, NULL);
    pthread_create(&n, NULL, new_owner, &got);
    sem_wait(&ready);
    sem_post(&handed);
    sem_wait(&written);
    while (atomic_load_explicit(&spinning, memory_order_relaxed) == 0) {
    }
    char* const old = block;
    free(block);
    sem_post(&freed);
    pthread_join(n, NULL);
    pthread_join(w, NULL);
    printf("%s %d\n", got == old ? "reused" : "moved", spins);
    free(got);
    free(fence);
    return 0;
}
