// The barrier's serial thread cleans up at once (libuv's uv_barrier_wait documentation:
// `if (uv_barrier_wait(&b) > 0) uv_barrier_destroy(&b);`, its test barrier_serial_thread):
// four workers and main meet at a barrier in a heap block; whichever gets
// PTHREAD_BARRIER_SERIAL_THREAD destroys the barrier and frees the block while the others may
// still be returning from their waits. POSIX leaves the destroy undefined only while a thread is
// blocked on the barrier, and none is once the round is complete (glibc's destroy waits for the
// others to leave): a wait reads the barrier on arrival only (before: the others' reads after
// their waits raced with the destroy and the free, 4 races in libuv's test; clang 14 TSan
// reports the same race, drd too). Then each worker adds its share under a mutex.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { kWorkers = 4 };
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int total;

static void meet(pthread_barrier_t* b) {
    if (pthread_barrier_wait(b) == PTHREAD_BARRIER_SERIAL_THREAD) {
        pthread_barrier_destroy(b);
        free(b);
    }
}

static void* worker(void* arg) {
    meet(arg);
    pthread_mutex_lock(&lock);
    total += 1;
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(void) {
    pthread_barrier_t* b = malloc(sizeof *b);
    if (b == NULL || pthread_barrier_init(b, NULL, kWorkers + 1) != 0) return 1;
    pthread_t threads[kWorkers];
    for (int i = 0; i < kWorkers; ++i)
        pthread_create(&threads[i], NULL, worker, b);
    meet(b);
    for (int i = 0; i < kWorkers; ++i)
        pthread_join(threads[i], NULL);
    printf("%d\n", total);
    return 0;
}
