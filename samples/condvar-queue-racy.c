// A queue with a condition variable where the producer publishes an item (count + signal
// under the mutex) and only then fills its slot, outside the critical section: the consumer
// may read the slot before the value is written.
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
        produced++;
        pthread_cond_signal(&nonempty);
        pthread_mutex_unlock(&mutex);
        queue[i] = i * 3; /* filled after it was published */ // RACE
    }
    return NULL;
}

static void* consumer(void* arg) {
    long* sum = arg;
    for (int taken = 0; taken < COUNT; ++taken) {
        pthread_mutex_lock(&mutex);
        while (produced <= taken)
            pthread_cond_wait(&nonempty, &mutex);
        *sum += queue[taken]; // RACE
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
