// A signal handler run on another thread than the one that prepared its data: main fills a
// table and installs the handler; a worker publishes a request with a release store and sends
// SIGUSR1 to main with pthread_kill; the handler (on main) reads the request with an acquire
// load, then the table, and records its answer, which main reads after the handler ran.
// Installing a handler happens before the handler runs; sending the signal orders nothing
// (POSIX XBD 4.12; C11 7.14.1.1p5 allows a handler only lock-free atomics of what another
// thread wrote), so the request goes through an atomic.
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static int table[16];
static atomic_int request;
static volatile sig_atomic_t answered;
static long answer;
static pthread_t main_thread;

static void on_usr1(int sig) {
    (void)sig;
    answer = table[atomic_load_explicit(&request, memory_order_acquire)] * 2;
    answered = 1;
}

static void* worker(void* arg) {
    (void)arg;
    atomic_store_explicit(&request, 5, memory_order_release);
    pthread_kill(main_thread, SIGUSR1);
    return NULL;
}

int main(void) {
    for (int i = 0; i < 16; ++i)
        table[i] = i * i;
    main_thread = pthread_self();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, NULL);
    sigset_t usr1, old;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &usr1, &old); // delivered only inside sigsuspend
    pthread_t w;
    pthread_create(&w, NULL, worker, NULL);
    while (!answered)
        sigsuspend(&old);
    printf("answer %ld\n", answer);
    pthread_join(w, NULL);
    return 0;
}
