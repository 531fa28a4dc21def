// signal-handler.c where the worker changes the request after sending the signal: the handler
// on main may read it before or after the change.
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
    answer = table[request % 16] * 2; // RACE
    answered = 1;
}

static void* worker(void* arg) {
    (void)arg;
    request = 5;
    pthread_kill(main_thread, SIGUSR1);
    request = 7; // RACE
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
