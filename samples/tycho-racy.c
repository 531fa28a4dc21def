// tycho-like (thesis ch. 9): children simulate parts of an address trace with no
// synchronization; this version updates one shared hit/miss counter pair and one shared tag
// array from every child, unsynchronized. Each child is a single computation event, so every
// race is between two whole children (thesis Figure 9.4(a)).
#define _XOPEN_SOURCE 700 /* POSIX 2008 with XSI: barriers, rwlocks, mutex types */
#include <pthread.h>
#include <stdio.h>

#define CHILDREN 4
#define REFS 1024
#define LINES 64

static unsigned trace[REFS];
static unsigned tags[LINES];
// volatile: each reference updates the shared counters in memory at every optimization level.
// Without it the loop has no synchronization, so -O1/-O2 may legally keep `hits` and `misses` in
// registers and store them once after the loop (gcc attributes that store to the `for` line,
// clang to no line): the race stays but on another line than the increments.
static volatile long hits, misses;

static void* simulate(void* arg) {
    const int me = (int)(long)arg;
    for (int i = me * (REFS / CHILDREN); i < (me + 1) * (REFS / CHILDREN); ++i) {
        const unsigned line = (trace[i] / 16) % LINES, tag = trace[i] / (16 * LINES);
        if (tags[line] == tag + 1) // RACE
            hits++;                // RACE? (only when two children hit)
        else {
            misses++;             // RACE
            tags[line] = tag + 1; // RACE
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
    for (int c = 0; c < CHILDREN; ++c)
        pthread_join(t[c], NULL);
    printf("hits %ld misses %ld\n", hits, misses);
    return 0;
}
