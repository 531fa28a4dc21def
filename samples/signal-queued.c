// Queued real-time signals landing while their thread is inside the tracer runtime: a worker
// hammers calls that enter the runtime (relaxed read-modify-writes, memcmp) while main queues
// SIGRTMIN+1 to it 300 times with pthread_sigqueue, each with its number as the value, without
// waiting in between. POSIX (XSH 2.4.2) queues every instance of a real-time signal with its
// value; the runtime defers a signal that arrives inside it (rt_deferred_signals.cpp) and must
// keep each further instance of it too (it once merged them as for standard signals). The
// handler checks the values arrive in order and counts them; the worker runs until all have
// arrived (or 20 s) and main checks the count after the join: a lost instance fails the run.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

enum { kSignals = 300 };

static volatile sig_atomic_t received; // by the worker's handler, read by the worker
static volatile sig_atomic_t out_of_order;
static atomic_long ticks;

static void on_rt(int sig, siginfo_t* info, void* context) {
    (void)sig;
    (void)context;
    if (info->si_value.sival_int != received) out_of_order = 1;
    received = received + 1;
}

static void* worker(void* arg) {
    (void)arg;
    char mine[64] = {0}, theirs[64] = {0};
    long mismatches = 0;
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    now = start;
    while (received < kSignals && now.tv_sec - start.tv_sec < 20) {
        for (int i = 0; i < 100; ++i) {
            atomic_fetch_add_explicit(&ticks, 1, memory_order_relaxed);
            mismatches += memcmp(mine, theirs, sizeof mine) != 0;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
    }
    return (void*)mismatches;
}

int main(void) {
    struct sigaction act;
    memset(&act, 0, sizeof act);
    act.sa_sigaction = on_rt;
    act.sa_flags = SA_SIGINFO;
    sigemptyset(&act.sa_mask);
    sigaction(SIGRTMIN + 1, &act, NULL);
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    while (atomic_load_explicit(&ticks, memory_order_relaxed) < 1000) {
    }
    for (int i = 0; i < kSignals; ++i) {
        union sigval value;
        value.sival_int = i;
        while (pthread_sigqueue(t, SIGRTMIN + 1, value) == EAGAIN) {
        }
    }
    pthread_join(t, NULL);
    printf("%d of %d signals, %s\n", (int)received, kSignals,
           out_of_order ? "out of order" : "in order");
    return received == kSignals && !out_of_order ? 0 : 1;
}
