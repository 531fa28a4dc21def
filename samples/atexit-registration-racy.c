// atexit-registration with the worker changing both summaries after registering the functions
// that print them: a registration is ordered before its function, not what follows it.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int summary[2];
static atomic_int registered;

static void report(void) {
    printf("summary %d\n", summary[0]); // RACE
}
static void report_status(int status, void* arg) {
    printf("status %d, %d\n", status, *(int*)arg); // RACE
}

static void* worker(void* arg) {
    (void)arg;
    atexit(report);
    on_exit(report_status, &summary[1]);
    summary[0] = 5; // RACE
    summary[1] = 7; // RACE
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
