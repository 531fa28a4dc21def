// Many short-lived threads (issue 13: 10^5 recorded threads must record and analyse in well
// under 5 minutes and bounded memory). `short_threads N join` creates N threads one after the
// other, each joined before the next starts; `short_threads N detach` creates N detached
// threads, at most 16 alive at once (a semaphore slot each). Every thread adds to a counter
// under a mutex and writes its own slot of an array: race-free.
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;
static long* slots;
static sem_t alive; // detached mode: free places for running threads

static void* body(void* arg) {
    const long i = (long)arg;
    slots[i] = i;
    pthread_mutex_lock(&lock);
    counter += 1;
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void* detached_body(void* arg) {
    body(arg);
    sem_post(&alive);
    return NULL;
}

int main(int argc, char** argv) {
    const long n = argc > 1 ? atol(argv[1]) : 100000;
    const int detach = argc > 2 && strcmp(argv[2], "detach") == 0;
    slots = calloc((size_t)n, sizeof *slots);
    if (slots == NULL) return 1;
    enum { kAlive = 16 };
    sem_init(&alive, 0, kAlive);
    for (long i = 0; i < n; ++i) {
        pthread_t t;
        if (detach) {
            sem_wait(&alive);
            pthread_attr_t attr;
            pthread_attr_init(&attr);
            pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
            if (pthread_create(&t, &attr, detached_body, (void*)i) != 0) return 1;
            pthread_attr_destroy(&attr);
        } else {
            if (pthread_create(&t, NULL, body, (void*)i) != 0) return 1;
            pthread_join(t, NULL);
        }
    }
    for (int k = 0; detach && k < kAlive; ++k) // every detached thread has finished
        sem_wait(&alive);
    long sum = 0;
    for (long i = 0; i < n; ++i)
        sum += slots[i];
    printf("%ld threads, counter %ld, sum %ld\n", n, counter, sum);
    free(slots);
    return 0;
}
