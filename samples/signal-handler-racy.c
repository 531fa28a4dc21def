// signal-handler.c where the request is a plain int: the worker's write before pthread_kill is
// not ordered before the handler's read (sending a signal synchronizes no memory: POSIX XBD
// 4.12; C11 7.14.1.1p5 makes the handler's access undefined; ThreadSanitizer reports it too).
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static int table[16];
static int request;
static volatile sig_atomic_t answered;
static long answer;
static pthread_t main_thread;

static void on_usr1(int sig) {
    (void)sig;
    answer = table[request % 16] * 2; // RACE
    answered = 1;
}

static void* worker(void* arg) {
    (void)arg;
    request = 5; // RACE
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
