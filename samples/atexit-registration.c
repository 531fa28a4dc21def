// Functions registered by a worker to run at exit: the worker prepares a summary, registers
// atexit and on_exit functions that print it, and tells main with a relaxed flag only; main
// returns later and exit runs the functions in main. The C library keeps them in a list under
// its own lock and calls them from exit: a registration is ordered before its function runs.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int summary[2];
static atomic_int registered;

static void report(void) {
    printf("summary %d\n", summary[0]);
}
static void report_status(int status, void* arg) {
    printf("status %d, %d\n", status, *(int*)arg);
}

static void* worker(void* arg) {
    (void)arg;
    summary[0] = 5;
    atexit(report);
    summary[1] = 7;
    on_exit(report_status, &summary[1]);
    atomic_store_explicit(&registered, 1, memory_order_relaxed);
    return NULL;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_detach(t);
    while (!atomic_load_explicit(&registered, memory_order_relaxed))
        usleep(100);
    usleep(10000);
    return 0;
}
