// daemon-detach.c, but the adders count without the lock before the program becomes a daemon:
// the races are in the parent's trace, which daemon's _exit(0) ends.
// PROCESS-TRACES: 2 (the program, the daemon (its fork child))
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static volatile long total; // volatile: else optimized code adds in a register, stores once

static void* adder(void* arg) {
    for (int i = 0; i < 1000; ++i)
        total += (long)arg; // RACE
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, adder, (void*)1);
    pthread_create(&b, NULL, adder, (void*)2);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    if (daemon(0, 0) != 0) return 2;
    // the daemon: its own session, in /, with its standard descriptors on /dev/null
    if (getsid(0) != getpid()) return 3;
    pthread_create(&a, NULL, adder, (void*)3);
    pthread_join(a, NULL);
    return 0;
}
