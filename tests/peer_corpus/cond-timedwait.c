// A condition variable waited on with pthread_cond_timedwait in a predicate loop.
#include <pthread.h>
#include <stdio.h>
#include <time.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int ready;
static int payload[4];
static void* producer(void* arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    for (int i = 0; i < 4; ++i)
        payload[i] = i + 1;
    ready = 1;
    pthread_cond_broadcast(&c);
    pthread_mutex_unlock(&m);
    return NULL;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, producer, NULL);
    pthread_mutex_lock(&m);
    while (!ready) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 1;
        pthread_cond_timedwait(&c, &m, &until);
    }
    int sum = payload[0] + payload[3];
    pthread_mutex_unlock(&m);
    pthread_join(t, NULL);
    printf("%d\n", sum);
    return 0;
}
