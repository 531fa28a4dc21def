// A queue with a condition variable: the producer appends under the mutex and signals; the
// consumer waits while the queue is empty. No data races.
#define _XOPEN_SOURCE 700 /* POSIX 2008 with XSI: barriers, rwlocks, mutex types */
#include <pthread.h>
#include <stdio.h>

#define COUNT 50

static int queue[COUNT];
static int produced = 0;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t nonempty = PTHREAD_COND_INITIALIZER;

static void* producer(void* arg) {
    (void)arg;
    for (int i = 0; i < COUNT; ++i) {
        pthread_mutex_lock(&mutex);
        queue[produced] = i * 3;
        produced++;
        pthread_cond_signal(&nonempty);
        pthread_mutex_unlock(&mutex);
    }
    return NULL;
}

static void* consumer(void* arg) {
    long* sum = arg;
    for (int taken = 0; taken < COUNT; ++taken) {
        pthread_mutex_lock(&mutex);
        while (produced <= taken)
            pthread_cond_wait(&nonempty, &mutex);
        *sum += queue[taken];
        pthread_mutex_unlock(&mutex);
    }
    return NULL;
}

int main(void) {
    long sum = 0;
    pthread_t p, c;
    pthread_create(&c, NULL, consumer, &sum);
    pthread_create(&p, NULL, producer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    printf("sum %ld\n", sum);
    return 0;
}
