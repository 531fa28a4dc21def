// A signal handler that runs while its thread is inside annotated ignore regions is traced
// (signal-ignore-region.c): the racy handler writes the data after its release store, and main
// reads it after acquiring that store: a race, which ignoring the handler's writes would hide.
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

void AnnotateIgnoreSyncBegin(const char* file, int line);
void AnnotateIgnoreSyncEnd(const char* file, int line);
void AnnotateIgnoreWritesBegin(const char* file, int line);
void AnnotateIgnoreWritesEnd(const char* file, int line);

static atomic_int in_region;
static atomic_int ready;
static atomic_int done;
static long data;

static void handler(int sig) {
    (void)sig;
    atomic_store_explicit(&ready, 1, memory_order_release);
    data = 42; // RACE
}

static void* worker(void* arg) {
    (void)arg;
    AnnotateIgnoreSyncBegin(__FILE__, __LINE__);
    AnnotateIgnoreWritesBegin(__FILE__, __LINE__);
    atomic_store_explicit(&in_region, 1, memory_order_relaxed);
    const struct timespec pause = {0, 1000000};
    while (!atomic_load_explicit(&done, memory_order_relaxed))
        nanosleep(&pause, NULL); // the signal arrives here (or inside the runtime: deferred)
    AnnotateIgnoreWritesEnd(__FILE__, __LINE__);
    AnnotateIgnoreSyncEnd(__FILE__, __LINE__);
    return NULL;
}

int main(void) {
    struct sigaction act = {0};
    act.sa_handler = handler;
    sigaction(SIGUSR1, &act, NULL);
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    while (!atomic_load_explicit(&in_region, memory_order_relaxed)) {
    }
    pthread_kill(t, SIGUSR1);
    while (!atomic_load_explicit(&ready, memory_order_acquire)) {
    }
    long seen = data; // RACE
    atomic_store_explicit(&done, 1, memory_order_relaxed);
    pthread_join(t, NULL);
    printf("%ld\n", seen);
    return 0;
}
