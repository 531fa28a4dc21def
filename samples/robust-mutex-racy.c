// As robust-mutex.c, but main peeks at a field the worker writes under the robust lock
// before taking the lock itself (a relaxed flag says the worker started; it orders nothing).
// main's EOWNERDEAD lock is ordered after the worker's end, so only that early read races.
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>

static pthread_mutex_t lock;
static int value;
static int note;
static atomic_int started;

static void* worker(void* arg) {
    (void)arg;
    pthread_mutex_lock(&lock);
    atomic_store_explicit(&started, 1, memory_order_relaxed);
    note = 1; // RACE
    value = 42;
    return NULL; // ends holding the lock
}

int main(void) {
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
    pthread_mutex_init(&lock, &attr);
    pthread_mutexattr_destroy(&attr);
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_detach(t);
    while (!atomic_load_explicit(&started, memory_order_relaxed))
        sched_yield();
    int seen = note; // RACE
    if (pthread_mutex_lock(&lock) != EOWNERDEAD) return 1;
    pthread_mutex_consistent(&lock);
    printf("value %d note %d\n", value, seen);
    pthread_mutex_unlock(&lock);
    return 0;
}
