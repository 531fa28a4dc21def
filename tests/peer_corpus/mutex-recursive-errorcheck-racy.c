// A recursive mutex taken twice and an error-checking mutex whose second lock fails: the
// thread that got EDEADLK goes on without holding it (its write races).
#include <pthread.h>
#include <stdio.h>
static pthread_mutex_t rec, chk;
static long a_total, b_total;
static void* worker(void* arg) {
    (void)arg;
    pthread_mutex_lock(&rec);
    pthread_mutex_lock(&rec);
    ++a_total;
    pthread_mutex_unlock(&rec);
    pthread_mutex_unlock(&rec);
    pthread_mutex_lock(&chk);
    ++b_total;
    pthread_mutex_unlock(&chk);
    return NULL;
}
int main(void) {
    pthread_mutexattr_t at;
    pthread_mutexattr_init(&at);
    pthread_mutexattr_settype(&at, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&rec, &at);
    pthread_mutexattr_settype(&at, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&chk, &at);
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_mutex_lock(&rec);
    ++a_total;
    pthread_mutex_unlock(&rec);
    pthread_mutex_unlock(&chk); // EPERM: not held, and main never locked it
    ++b_total;                  // RACE
    pthread_join(t, NULL);
    printf("%ld %ld\n", a_total, b_total);
    return 0;
}
