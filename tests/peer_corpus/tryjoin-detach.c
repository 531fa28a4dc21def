// pthread_tryjoin_np polled until the thread has ended, pthread_timedjoin_np, and a detached
// thread that hands its result over through a mutex.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <time.h>
static int a_result, b_result, c_result;
static int c_done;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static void* a(void* arg) {
    (void)arg;
    a_result = 1;
    return NULL;
}
static void* b(void* arg) {
    (void)arg;
    b_result = 2;
    return NULL;
}
static void* c(void* arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    c_result = 3;
    c_done = 1;
    pthread_mutex_unlock(&m);
    return NULL;
}
int main(void) {
    pthread_t ta, tb, tc;
    pthread_create(&ta, NULL, a, NULL);
    pthread_create(&tb, NULL, b, NULL);
    pthread_create(&tc, NULL, c, NULL);
    pthread_detach(tc);
    while (pthread_tryjoin_np(ta, NULL) != 0) {
    }
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    pthread_timedjoin_np(tb, NULL, &until);
    int sum = a_result + b_result;
    for (int done = 0; !done;) {
        pthread_mutex_lock(&m);
        done = c_done;
        if (done) sum += c_result;
        pthread_mutex_unlock(&m);
    }
    printf("%d\n", sum);
    return 0;
}
