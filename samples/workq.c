// Thesis Figure 2.1, correct version: the removes from the shared work queue are guarded by one
// shared lock, so the children work on disjoint regions. No data races.
#define _XOPEN_SOURCE 700 /* POSIX 2008 with XSI: barriers, rwlocks, mutex types */
#include <pthread.h>
#include <stdio.h>

#define N 41
static int array[N];
static struct { int lo, hi; } queue[2] = {{1, 10}, {30, 40}};
static int head = 0;
static const int queue_size = 2;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void work(int lo, int hi) {
    for (int i = lo; i <= hi; ++i)
        array[i] = array[i] * 2 + 1;
}

static int remove_region(int* lo, int* hi) {
    int i = head;
    if (i >= queue_size) return 0;
    *lo = queue[i].lo;
    head = i + 1;
    *hi = queue[head - 1].hi;
    return 1;
}

static void* child(void* arg) {
    const int me = (int)(long)arg;
    if (me == 0)
        work(11, 19); /* initial work on disjoint internal regions */
    else
        work(20, 29);
    for (;;) {
        int lo, hi;
        pthread_mutex_lock(&lock);
        const int got = remove_region(&lo, &hi);
        pthread_mutex_unlock(&lock);
        if (!got) break;
        work(lo, hi);
    }
    return NULL;
}

int main(void) {
    pthread_t left, right;
    pthread_create(&left, NULL, child, (void*)0L);
    pthread_create(&right, NULL, child, (void*)1L);
    pthread_join(left, NULL);
    pthread_join(right, NULL);
    long sum = 0;
    for (int i = 0; i < N; ++i)
        sum += array[i];
    printf("sum %ld\n", sum);
    return 0;
}
