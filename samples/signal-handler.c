// A signal handler run on another thread than the one that prepared its data: main fills a
// table and installs the handler; a worker sends SIGUSR1 to main with pthread_kill after
// preparing the request; the handler (on main) reads both and records its answer, which main
// reads after the handler ran. Installing a handler, and sending a signal, happen before the
// handler runs.
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int table[16];
static int request;
static volatile sig_atomic_t answered;
static long answer;
static pthread_t main_thread;

static void on_usr1(int sig) {
    (void)sig;
    answer = table[request] * 2;
    answered = 1;
}

static void* worker(void* arg) {
    (void)arg;
    request = 5;
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
    pthread_t w;
    pthread_create(&w, NULL, worker, NULL);
    while (!answered)
        usleep(100);
    printf("answer %ld\n", answer);
    pthread_join(w, NULL);
    return 0;
}
