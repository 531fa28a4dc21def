// Barriers misused while threads are blocked on them (POSIX: the results are undefined), as in
// Valgrind's bar_bad test: `resized` is initialized again while a thread is blocked on it, then
// freed while two are; `closing` is destroyed while a thread is blocked on it. glibc's
// pthread_barrier_destroy waits until as many threads as had entered have left: here a late
// one that completes the round (the blocked one, woken, mostly finds the round reset and blocks
// again), so the free after it is ordered after the late thread's wait. Each such call is
// reported as a misuse of a synchronization object (marked on its line), none as a data race:
// the threads touch nothing else. Whether the blocked thread is still blocked when `closing` is
// freed depends on the run.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static atomic_int waiting;

// Each barrier lives past the first words of its heap block, which the allocator writes when it
// takes the block back: a blocked thread that a signal wakes (the tracer's at exit) finds its
// barrier as it was and blocks again, instead of leaving on the allocator's words.
struct block {
    char allocator_words[64];
    pthread_barrier_t barrier;
};

static void pause_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

// Blocks on the barrier (for good, when its round never completes).
static void* block_on(void* arg) {
    atomic_fetch_add(&waiting, 1);
    pthread_barrier_wait((pthread_barrier_t*)arg);
    return NULL;
}

// Completes the round a destroy waits for, well after the destroy started.
static void* arrive_late(void* arg) {
    pause_ms(400);
    pthread_barrier_wait((pthread_barrier_t*)arg);
    return NULL;
}

static void wait_for_blocked(int n) {
    while (atomic_load(&waiting) < n)
        pause_ms(1);
    pause_ms(100); // the last one is in its wait by then
}

int main(void) {
    pthread_t first, second, blocker, late;

    struct block* resized_block = malloc(sizeof *resized_block);
    pthread_barrier_t* resized = &resized_block->barrier;
    pthread_barrier_init(resized, NULL, 2);
    pthread_create(&first, NULL, block_on, resized);
    wait_for_blocked(1);
    pthread_barrier_init(resized, NULL, 3); // MISUSE
    pthread_create(&second, NULL, block_on, resized);
    wait_for_blocked(2);

    struct block* closing_block = malloc(sizeof *closing_block);
    pthread_barrier_t* closing = &closing_block->barrier;
    pthread_barrier_init(closing, NULL, 2);
    pthread_create(&blocker, NULL, block_on, closing);
    pthread_create(&late, NULL, arrive_late, closing);
    wait_for_blocked(3);
    pthread_barrier_destroy(closing); // MISUSE
    free(closing_block);              // MISUSE?

    free(resized_block); // MISUSE
    pthread_join(late, NULL);
    puts("done");
    return 0; // `first`, `second` and `blocker` are still blocked: exit ends them
}
