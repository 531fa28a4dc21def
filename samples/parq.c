// parq-like (thesis ch. 9): a parallel queue. Children loop, queueing and dequeueing records
// through one shared bounded queue guarded by one lock. No data races.
#define _XOPEN_SOURCE 700 /* POSIX 2008 with XSI: barriers, rwlocks, mutex types */
#include <pthread.h>
#include <stdio.h>

#define CHILDREN 2
#define ROUNDS 30
#define CAP 16

static int items[CAP];
static int first = 0, count = 0;
static long total = 0;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static int transfer(int v) {
    int out = -1;
    pthread_mutex_lock(&lock);
    if (count < CAP) {
        items[(first + count) % CAP] = v;
        count++;
    }
    if (count > 0) {
        out = items[first];
        first = (first + 1) % CAP;
        count--;
    }
    pthread_mutex_unlock(&lock);
    return out;
}

static void* child(void* arg) {
    const int me = (int)(long)arg;
    long sum = 0;
    for (int i = 0; i < ROUNDS; ++i)
        sum += transfer(me * 1000 + i);
    pthread_mutex_lock(&lock);
    total += sum;
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(void) {
    pthread_t t[CHILDREN];
    for (long c = 0; c < CHILDREN; ++c)
        pthread_create(&t[c], NULL, child, (void*)c);
    for (int c = 0; c < CHILDREN; ++c)
        pthread_join(t[c], NULL);
    printf("total %ld, %d left\n", total, count);
    return 0;
}
