// tycho-like (thesis ch. 9): a cache simulator. Children simulate disjoint parts of an address
// trace with no synchronization at all; each keeps its own hit/miss counters, which the parent
// sums after joining them. No data races.
#define _XOPEN_SOURCE 700 /* POSIX 2008 with XSI: barriers, rwlocks, mutex types */
#include <pthread.h>
#include <stdio.h>

#define CHILDREN 4
#define REFS 1024
#define LINES 64

static unsigned trace[REFS];
static unsigned tags[CHILDREN][LINES];
static long hits[CHILDREN], misses[CHILDREN];

static void* simulate(void* arg) {
    const int me = (int)(long)arg;
    for (int i = me * (REFS / CHILDREN); i < (me + 1) * (REFS / CHILDREN); ++i) {
        const unsigned line = (trace[i] / 16) % LINES, tag = trace[i] / (16 * LINES);
        if (tags[me][line] == tag + 1)
            hits[me]++;
        else {
            misses[me]++;
            tags[me][line] = tag + 1;
        }
    }
    return NULL;
}

int main(void) {
    for (int i = 0; i < REFS; ++i)
        trace[i] = (unsigned)(i * 2654435761u) % 65536;
    pthread_t t[CHILDREN];
    for (long c = 0; c < CHILDREN; ++c)
        pthread_create(&t[c], NULL, simulate, (void*)c);
    long h = 0, m = 0;
    for (int c = 0; c < CHILDREN; ++c) {
        pthread_join(t[c], NULL);
        h += hits[c];
        m += misses[c];
    }
    printf("hits %ld misses %ld\n", h, m);
    return 0;
}
