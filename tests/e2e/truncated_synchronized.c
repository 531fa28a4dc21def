// A fully synchronized program that ends abruptly while its threads are busy: every access to
// the shared counter and history is under one mutex. `exit`: a worker calls exit() in the
// middle of the run; `kill`: main sends itself SIGKILL. The truncated trace must show no race:
// the reader cuts the streams at a consistent point (an acquire whose release was lost in
// flight is not kept, nor anything after it).
#define _DEFAULT_SOURCE /* usleep */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define WORKERS 4

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;
static long history[256];
static int exit_mode;

static void* worker(void* arg) {
    const long me = (long)arg;
    for (long i = 0;; ++i) {
        pthread_mutex_lock(&lock);
        counter += 1;
        history[counter % 256] = me;
        const long seen = counter;
        pthread_mutex_unlock(&lock);
        if (exit_mode && me == 1 && seen > 20000) exit(0);
        if (i % 1024 == 0) usleep(100);
    }
    return NULL;
}

int main(int argc, char** argv) {
    exit_mode = argc > 1 && strcmp(argv[1], "exit") == 0;
    pthread_t t[WORKERS];
    for (long i = 0; i < WORKERS; ++i)
        pthread_create(&t[i], NULL, worker, (void*)i);
    // Sleep the whole time even when a signal interrupts the sleep (the tracer signals every
    // thread while a worker's exit() flushes the trace).
    struct timespec left = {exit_mode ? 10 : 0, exit_mode ? 0 : 150000000};
    while (nanosleep(&left, &left) != 0) {
    }
    raise(SIGKILL);
    return 1;
}
