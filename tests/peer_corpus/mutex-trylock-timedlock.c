// pthread_mutex_trylock in a retry loop and pthread_mutex_timedlock guard one counter.
#include <pthread.h>
#include <stdio.h>
#include <time.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long counter;
static void* trier(void* arg) {
    (void)arg;
    for (int i = 0; i < 1000; ++i) {
        while (pthread_mutex_trylock(&m) != 0) {
        }
        ++counter;
        pthread_mutex_unlock(&m);
    }
    return NULL;
}
static void* timer(void* arg) {
    (void)arg;
    for (int i = 0; i < 1000; ++i) {
        struct timespec t;
        clock_gettime(CLOCK_REALTIME, &t);
        t.tv_sec += 10;
        if (pthread_mutex_timedlock(&m, &t) != 0) continue;
        ++counter;
        pthread_mutex_unlock(&m);
    }
    return NULL;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, trier, NULL);
    pthread_create(&b, NULL, timer, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld\n", counter);
    return 0;
}
