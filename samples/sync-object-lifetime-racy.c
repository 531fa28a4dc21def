// The lifetime of a pthread object against its use. worker_a initializes the mutex and uses it;
// worker_b takes it after seeing a relaxed flag (which orders nothing): b's lock reads the mutex
// before it is ordered after a's unlock, so a's pthread_mutex_init races with it even though
// the lock then orders everything after (a's own lock reads the mutex in the same computation
// event as the init, before its acquire: that event is the one that races). Two threads meet
// at a barrier and whichever is the serial thread destroys it at once, while the other may
// still be returning from the wait.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static pthread_mutex_t lock;
static atomic_int lock_ready;
static int shared;
static pthread_barrier_t meeting;

static void* worker_a(void* arg) {
    (void)arg;
    pthread_mutex_init(&lock, NULL); // RACE
    pthread_mutex_lock(&lock);       // RACE
    shared = 1;
    pthread_mutex_unlock(&lock);
    atomic_store_explicit(&lock_ready, 1, memory_order_relaxed);
    return NULL;
}

static void* worker_b(void* arg) {
    (void)arg;
    while (!atomic_load_explicit(&lock_ready, memory_order_relaxed)) {
    }
    pthread_mutex_lock(&lock); // RACE
    shared += 1;
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void* meet(void* arg) {
    (void)arg;
    if (pthread_barrier_wait(&meeting) == PTHREAD_BARRIER_SERIAL_THREAD) // RACE
        pthread_barrier_destroy(&meeting);                               // RACE
    return NULL;
}

int main(void) {
    pthread_t a, b, m1, m2;
    pthread_create(&a, NULL, worker_a, NULL);
    pthread_create(&b, NULL, worker_b, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_mutex_destroy(&lock);
    pthread_barrier_init(&meeting, NULL, 2);
    pthread_create(&m1, NULL, meet, NULL);
    pthread_create(&m2, NULL, meet, NULL);
    pthread_join(m1, NULL);
    pthread_join(m2, NULL);
    printf("%d\n", shared);
    return 0;
}
