// The signal of signal-at-thread-start.c, but the handlers count in a plain int: two threads'
// handlers increment it unordered.
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

enum { kThreads = 40 };
static int table[4];
static int handled;
static _Thread_local int seen;

static void handler(int sig) {
    (void)sig;
    seen += table[0] + table[3];
    ++handled; // RACE
}

static void* worker(void* arg) {
    (void)arg;
    usleep(2000); // time for the signal
    seen += 1;    // after the handler, on the same thread
    return NULL;
}

int main(void) {
    for (int i = 0; i < 4; ++i)
        table[i] = 10 * i;
    struct sigaction act = {0};
    act.sa_handler = handler;
    sigemptyset(&act.sa_mask);
    if (sigaction(SIGUSR1, &act, NULL) != 0) return 1;
    pthread_t threads[kThreads];
    for (int i = 0; i < kThreads; ++i) {
        pthread_create(&threads[i], NULL, worker, NULL);
        pthread_kill(threads[i], SIGUSR1);
    }
    for (int i = 0; i < kThreads; ++i)
        pthread_join(threads[i], NULL);
    printf("%d handled\n", handled);
    return 0;
}
