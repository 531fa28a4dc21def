// A robust mutex whose owner ends while holding it: the worker updates the shared record
// under the lock and returns without unlocking (as if it had crashed). main's next lock
// returns EOWNERDEAD, holding the mutex; it repairs the record (pthread_mutex_consistent) and
// goes on. The kernel hands the mutex on only after the owner is gone, so the owner's writes
// happened before main's lock returned. main does not join the worker before locking. No race.
#include <errno.h>
#include <sched.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock;
static struct {
    int value;
    int consistent;
} record;

static void* worker(void* arg) {
    (void)arg;
    pthread_mutex_lock(&lock);
    record.consistent = 0;
    record.value = 42;
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
    int r;
    while ((r = pthread_mutex_lock(&lock)) == 0) { // the worker has not locked yet
        pthread_mutex_unlock(&lock);
        sched_yield();
    }
    if (r != EOWNERDEAD) return 1;
    record.consistent = 1; // repaired
    pthread_mutex_consistent(&lock);
    printf("value %d\n", record.value);
    pthread_mutex_unlock(&lock);
    return 0;
}
