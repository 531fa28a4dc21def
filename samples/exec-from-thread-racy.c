// exec-from-thread.c, but the adders count without the lock (the races are found in a trace
// that the exec of /bin/true by another thread ends).
#define _GNU_SOURCE
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <unistd.h>

static volatile long total; // volatile: else optimized code adds in a register, stores once
static sem_t counted, never;

static void* adder(void* arg) {
    for (int i = 0; i < 1000; ++i)
        total += (long)arg; // RACE
    sem_post(&counted);
    sem_wait(&never); // until the exec ends the process's threads
    return NULL;
}

static void* replacer(void* arg) {
    (void)arg;
    sem_wait(&counted);
    sem_wait(&counted);
    usleep(100000); // (main is in pthread_join by now, not inside the runtime: see below)
    char* argv[] = {"true", NULL};
    execv("/bin/true", argv);
    _exit(3); // the exec failed
}

int main(void) {
    sem_init(&counted, 0, 0);
    sem_init(&never, 0, 0);
    pthread_t a, b, r;
    pthread_create(&a, NULL, adder, (void*)1);
    pthread_create(&b, NULL, adder, (void*)2);
    pthread_create(&r, NULL, replacer, NULL);
    // Never returns: the exec replaces the process. (A thread inside a runtime call when the
    // exec finishes the trace, e.g. still in pthread_create, is asked again until it is out.)
    pthread_join(r, NULL);
    return 4;
}
