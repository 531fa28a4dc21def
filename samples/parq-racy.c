// parq-like (thesis ch. 9) with one lock operation removed: the second child's copy of the
// queue transfer lost its lock call but still unlocks (an error-checking mutex, so the stray
// unlock fails at run time and synchronizes nothing). That child's queue operations never get
// an incoming synchronization edge (thesis Figure 9.5) and race with the first child's. The
// children take turns through a relaxed atomic (which orders nothing) so that the run interleaves
// them the same way every time.
#define _XOPEN_SOURCE 700 /* POSIX 2008 with XSI: barriers, rwlocks, mutex types */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#define ROUNDS 10
#define CAP 16

// volatile and noinline: every statement of transfer/transfer_fast below is its own access at
// every optimization level, as in the thesis' event traces. Between the lock and the unlock (and
// in transfer_fast, with only relaxed atomics around it) an optimizing compiler may legally keep
// `count` and `first` in registers, and with both functions inlined into child, gcc -O2 and clang
// merge their identical tails into one access (clang's with no source line): the race stays,
// on fewer lines. (clang's instrumentation still skips a read that a write of the same variable
// follows in the same block, as for `count++`: the write stands for the line.)
static volatile int items[CAP];
static volatile int first = 0, count = 0;
static long total = 0;
static pthread_mutex_t lock;
static atomic_int turn; // staging only: relaxed, no ordering

__attribute__((noinline)) static int transfer(int v) {
    int out = -1;
    pthread_mutex_lock(&lock);
    if (count < CAP) {                    // RACE
        items[(first + count) % CAP] = v; // RACE
        count++;                          // RACE
    }
    if (count > 0) {               // RACE
        out = items[first];        // RACE?
        first = (first + 1) % CAP; // RACE
        count--;                   // RACE
    }
    pthread_mutex_unlock(&lock);
    return out;
}

__attribute__((noinline)) static int transfer_fast(int v) {
    int out = -1;
    /* pthread_mutex_lock(&lock);  -- removed */
    if (count < CAP) {                    // RACE
        items[(first + count) % CAP] = v; // RACE
        count++;                          // RACE
    }
    if (count > 0) {               // RACE
        out = items[first];        // RACE?
        first = (first + 1) % CAP; // RACE
        count--;                   // RACE
    }
    pthread_mutex_unlock(&lock);
    return out;
}

static void* child(void* arg) {
    const int me = (int)(long)arg;
    long sum = 0;
    for (int i = 0; i < ROUNDS; ++i) {
        while (atomic_load_explicit(&turn, memory_order_relaxed) != me) {
        }
        sum += me == 0 ? transfer(i) : transfer_fast(1000 + i);
        atomic_store_explicit(&turn, 1 - me, memory_order_relaxed);
    }
    pthread_mutex_lock(&lock);
    total += sum;
    pthread_mutex_unlock(&lock);
    return NULL;
}

int main(void) {
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&lock, &attr);
    pthread_t t[2];
    for (long c = 0; c < 2; ++c)
        pthread_create(&t[c], NULL, child, (void*)c);
    for (int c = 0; c < 2; ++c)
        pthread_join(t[c], NULL);
    printf("total %ld, %d left\n", total, count);
    return 0;
}
