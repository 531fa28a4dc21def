// The lifetime of a pthread object against its use, correctly ordered: main initializes the
// mutex before creating the workers that use it and destroys it after joining them; two threads
// meet at a barrier that main destroys after joining them (not the serial thread at once).
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock;
static int shared;
static pthread_barrier_t meeting;

static void* worker(void* arg) {
    (void)arg;
    pthread_mutex_lock(&lock);
    shared += 1;
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void* meet(void* arg) {
    (void)arg;
    pthread_barrier_wait(&meeting);
    return NULL;
}

int main(void) {
    pthread_t a, b, m1, m2;
    pthread_mutex_init(&lock, NULL);
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_mutex_destroy(&lock);
    pthread_barrier_init(&meeting, NULL, 2);
    pthread_create(&m1, NULL, meet, NULL);
    pthread_create(&m2, NULL, meet, NULL);
    pthread_join(m1, NULL);
    pthread_join(m2, NULL);
    pthread_barrier_destroy(&meeting);
    printf("%d\n", shared);
    return 0;
}
