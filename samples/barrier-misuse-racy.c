// barrier-misuse with real races besides the misuses: a counter both threads of the destroyed
// barrier's round bump without a lock, and a barrier that its serial thread destroys once the
// round has completed while the other thread may still be returning from its wait (the round is
// over, so no misuse: the destroy's write races with that return, as in LLVM's
// race_on_barrier2.c and DRD's pth_barrier_race.c).
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
static long bumps;
static pthread_barrier_t meeting;

static void pause_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void* block_on(void* arg) {
    atomic_fetch_add(&waiting, 1);
    pthread_barrier_wait((pthread_barrier_t*)arg);
    return NULL;
}

static void* arrive_late(void* arg) {
    pause_ms(400);
    bumps += 1; // RACE
    pthread_barrier_wait((pthread_barrier_t*)arg);
    return NULL;
}

static void* meet(void* arg) {
    (void)arg;
    if (pthread_barrier_wait(&meeting) == PTHREAD_BARRIER_SERIAL_THREAD) // RACE
        pthread_barrier_destroy(&meeting);                               // RACE
    return NULL;
}

static void wait_for_blocked(int n) {
    while (atomic_load(&waiting) < n)
        pause_ms(1);
    pause_ms(100);
}

int main(void) {
    pthread_t first, second, blocker, late, m1, m2;

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
    bumps += 1;                       // RACE
    pthread_barrier_destroy(closing); // MISUSE
    free(closing_block);              // MISUSE?

    pthread_barrier_init(&meeting, NULL, 2);
    pthread_create(&m1, NULL, meet, NULL);
    pthread_create(&m2, NULL, meet, NULL);
    pthread_join(m1, NULL);
    pthread_join(m2, NULL);

    free(resized_block); // MISUSE
    pthread_join(late, NULL);
    printf("%ld\n", bumps);
    return 0; // `first`, `second` and `blocker` are still blocked: exit ends them
}
