// Thesis Figure 2.1: a shared work queue. Two children first work on disjoint internal regions
// of a shared array, then remove [lo,hi] records from a shared queue and work on them. The
// queue initially holds the regions along the array's boundaries, so a correct execution has
// no data race. Here each child guards its remove with its own lock (the bug: they should share
// one), so the removes run concurrently. This execution reproduces the thesis' interleaving
// (relaxed atomics, which order nothing, stage it): the right child removes the second record,
// the left child takes the lower bound of the first and the upper bound of the second record
// and works on [1,40]. The race between the removes is the real one (first partition); the
// races between the left child's work and the right child's work are artifacts of it.
#define _XOPEN_SOURCE 700 /* POSIX 2008 with XSI: barriers, rwlocks, mutex types */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#define N 41
static int array[N];
static struct { int lo, hi; } queue[2] = {{1, 10}, {30, 40}};
// volatile: the left child must read `head` again after its staging wait (line 43), as in the
// thesis' interleaving. Only relaxed atomics lie between its write (line 38) and that read, and
// they order nothing, so an optimizing compiler may legally reuse the value it wrote (clang -O2
// does): the left child then takes its own record's bound and works on [1,10], no artifacts.
static volatile int head = 0; // FIRST-VARIABLE: head
static const int queue_size = 2;
static pthread_mutex_t locks[2] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};
static atomic_int stage; // only stages the thesis' interleaving: relaxed, no ordering

static void wait_stage(int s) {
    while (atomic_load_explicit(&stage, memory_order_relaxed) != s) {
    }
}

static void work(int lo, int hi) {
    for (int i = lo; i <= hi; ++i)
        array[i] = array[i] * 2 + 1; // ARTIFACT
}

static int remove_region(int child, int* lo, int* hi) {
    if (child == 1) wait_stage(1);
    int i = head; // RACE
    if (i >= queue_size) return 0;
    *lo = queue[i].lo;
    head = i + 1; // RACE
    if (child == 0) {
        atomic_store_explicit(&stage, 1, memory_order_relaxed);
        wait_stage(2);
    }
    *hi = queue[head - 1].hi; // RACE
    if (child == 1) atomic_store_explicit(&stage, 2, memory_order_relaxed);
    return 1;
}

static void* child(void* arg) {
    const int me = (int)(long)arg;
    if (me == 0)
        work(11, 19); /* initial work on disjoint internal regions */
    else
        work(20, 29);
    int lo, hi;
    pthread_mutex_lock(&locks[me]); /* the bug: each child takes its own lock */
    const int got = remove_region(me, &lo, &hi);
    pthread_mutex_unlock(&locks[me]);
    if (got) work(lo, hi);
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
