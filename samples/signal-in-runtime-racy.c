// signal-in-runtime.c where the handler reads the round's message after its release store:
// main's next write of the message is not ordered after that read. Most handlers run deferred,
// at the end of the runtime call the signal interrupted, and are traced there.
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

enum { kRounds = 200 };

static long message;
static atomic_int posted_round;
static atomic_int answered_round;
static long handled_message;
static atomic_int stop;
static atomic_long ticks;

static void on_usr1(int sig) {
    (void)sig;
    const int round = atomic_load_explicit(&posted_round, memory_order_acquire);
    atomic_store_explicit(&answered_round, round, memory_order_release);
    handled_message = message; // RACE
}

static void* worker(void* arg) {
    (void)arg;
    char mine[64] = {0}, theirs[64] = {0};
    long mismatches = 0;
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        // both enter the runtime (an atomic's slow path, an interceptor) and record no event
        atomic_fetch_add_explicit(&ticks, 1, memory_order_relaxed);
        mismatches += memcmp(mine, theirs, sizeof mine) != 0;
    }
    return (void*)mismatches;
}

int main(void) {
    struct sigaction act = {0};
    act.sa_handler = on_usr1;
    sigemptyset(&act.sa_mask);
    sigaction(SIGUSR1, &act, NULL);
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    while (atomic_load_explicit(&ticks, memory_order_relaxed) < 1000) {
    }
    for (int round = 1; round <= kRounds; ++round) {
        message = round * 10L; // RACE
        atomic_store_explicit(&posted_round, round, memory_order_release);
        pthread_kill(t, SIGUSR1);
        while (atomic_load_explicit(&answered_round, memory_order_acquire) != round) {
        }
    }
    atomic_store_explicit(&stop, 1, memory_order_relaxed);
    pthread_join(t, NULL);
    printf("%ld\n", handled_message);
    return 0;
}
