// Detached threads, one after the other, that glibc runs on the same cached stack with the
// same static TLS block: each writes its stack array and its __thread buffer, then signals
// main before it ends. A thread's end is ordered before the start of the next thread on its
// storage, so the frames and TLS of successive threads are not shared data.
#define _DEFAULT_SOURCE /* usleep */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define ROUNDS 5

static sem_t started;
static __thread int tls_buffer[32];
static long sums[ROUNDS];

static void* worker(void* arg) {
    const long round = (long)arg;
    int local[64];
    for (int i = 0; i < 64; ++i)
        local[i] = (int)round + i;
    for (int i = 0; i < 32; ++i)
        tls_buffer[i] = local[i] * 2;
    long sum = 0;
    for (int i = 0; i < 32; ++i)
        sum += tls_buffer[i];
    sums[round] = sum;
    sem_post(&started);
    for (int i = 0; i < 64; ++i) // after the post: only the thread's end orders these
        local[i] = 0;
    memset(tls_buffer, 0, sizeof tls_buffer);
    return NULL;
}

int main(void) {
    sem_init(&started, 0, 0);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    long total = 0;
    for (long round = 0; round < ROUNDS; ++round) {
        pthread_t t;
        pthread_create(&t, &attr, worker, (void*)round);
        sem_wait(&started);
        total += sums[round];
        usleep(20000); // the worker ends; its stack goes back to glibc's cache
    }
    pthread_attr_destroy(&attr);
    printf("total %ld\n", total);
    return 0;
}
