// Phases in which main is the program's only thread: it fills a table before creating any
// thread, and rewrites it after joining every worker; the workers of two rounds read it and
// write their own halves of a result. Accesses made while a thread is alone (no other thread
// exists that is not joined) can race with nothing, so the runtime leaves them out of the trace
// (DESIGN-NOTES "Events of a process that is alone"); the program is race-free either way.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

enum { kSize = 4096 };
static int table[kSize];
static long result[2];

static void* worker(void* arg) {
    const long half = (long)arg;
    long sum = 0;
    for (int i = 0; i < kSize; ++i)
        sum += table[i];
    result[half] += sum;
    return NULL;
}

static void round_of_workers(void) {
    pthread_t t[2];
    for (long i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, worker, (void*)i);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
}

int main(void) {
    for (int i = 0; i < kSize; ++i) // alone: before any thread
        table[i] = i;
    round_of_workers();
    memset(table, 0, sizeof table); // alone again: every worker was joined
    for (int i = 0; i < kSize; ++i)
        table[i] = 2 * i;
    result[0] = result[1] = 0;
    round_of_workers();

    printf("%ld %ld\n", result[0], result[1]);
    return 0;
}
