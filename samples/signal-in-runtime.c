// Signals that land while their thread is inside the tracer runtime: a worker hammers calls
// that enter the runtime (relaxed read-modify-writes, memcmp) while main sends it SIGUSR1 over
// and over; most signals arrive inside the runtime. Each round main writes that round's
// request, publishes the round number with a release store and sends the signal; the handler
// acquires the round number, reads the request and answers with a release store that main
// waits for; the worker reads the request again after seeing that its handler ran (same thread,
// so after the handler's acquire). The runtime defers such a signal to the end of the runtime
// call (as ThreadSanitizer does): the handler is traced, its acquire included. (When a handler
// ran untraced inside the runtime, the worker's read raced with main's write.)
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

enum { kRounds = 200 };

static long request[kRounds + 1];
static atomic_int posted_round;
static atomic_int answered_round;
static long handled_message;
static volatile sig_atomic_t handled_round;
static atomic_int stop;
static atomic_long ticks;

static void on_usr1(int sig) {
    (void)sig;
    const int round = atomic_load_explicit(&posted_round, memory_order_acquire);
    handled_message = request[round];
    handled_round = round;
    atomic_store_explicit(&answered_round, round, memory_order_release);
}

static void* worker(void* arg) {
    (void)arg;
    char mine[64] = {0}, theirs[64] = {0};
    long sum = 0, mismatches = 0;
    int seen = 0;
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        // both enter the runtime (an atomic's slow path, an interceptor) and record no event
        atomic_fetch_add_explicit(&ticks, 1, memory_order_relaxed);
        mismatches += memcmp(mine, theirs, sizeof mine) != 0;
        if (handled_round != seen) {
            seen = handled_round;
            sum += request[seen] + handled_message; // after this thread's handler ran
        }
    }
    return (void*)(sum + mismatches);
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
        request[round] = round * 10L;
        atomic_store_explicit(&posted_round, round, memory_order_release);
        pthread_kill(t, SIGUSR1);
        while (atomic_load_explicit(&answered_round, memory_order_acquire) != round) {
        }
    }
    atomic_store_explicit(&stop, 1, memory_order_relaxed);
    void* sum;
    pthread_join(t, &sum);
    printf("%ld %d\n", handled_message, sum != NULL);
    return 0;
}
