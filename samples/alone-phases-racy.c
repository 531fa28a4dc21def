// As alone-phases.c, but main is not alone when it may look so: a helper has finished its work
// when main writes what it wrote, unordered with it (a relaxed flag orders nothing; the join
// comes later). Main's writes while it really is alone (before any thread, after the joins)
// race with nothing.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

enum { kSize = 4096 };
static int table[kSize];
static long result[2];
long helper_state;             // external: a store another thread races with is not dead code
static atomic_int helper_done; // relaxed: orders nothing

static void* worker(void* arg) {
    const long half = (long)arg;
    long sum = 0;
    for (int i = 0; i < kSize; ++i)
        sum += table[i];
    result[half] += sum;
    return NULL;
}

static void* helper(void* arg) {
    (void)arg;
    helper_state = 1; // RACE
    atomic_store_explicit(&helper_done, 1, memory_order_relaxed);
    return NULL;
}

static void wait_relaxed(atomic_int* flag) {
    for (int tries = 0; tries < 2000 && !atomic_load_explicit(flag, memory_order_relaxed);
         ++tries) {
        struct timespec pause = {0, 1000 * 1000};
        nanosleep(&pause, NULL);
    }
}

int main(void) {
    for (int i = 0; i < kSize; ++i) // alone: before any thread
        table[i] = i;
    pthread_t t[2];
    for (long i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, worker, (void*)i);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    memset(table, 0, sizeof table); // alone again: every worker was joined

    pthread_t h;
    pthread_create(&h, NULL, helper, NULL);
    wait_relaxed(&helper_done);
    helper_state = 2; // RACE
    pthread_join(h, NULL);
    helper_state = 3; // alone again
    printf("%ld %ld\n", result[0], result[1]);
    return 0;
}
