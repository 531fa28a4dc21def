// shpath-like (thesis ch. 9) with a wrong shared-array subscript: each child writes the new
// distance of its node into the current round's row instead of the next round's, which the
// other children are reading in the same round.
#define _XOPEN_SOURCE 700 /* POSIX 2008 with XSI: barriers, rwlocks, mutex types */
#include <pthread.h>
#include <stdio.h>

#define NODES 24
#define CHILDREN 3
#define PER (NODES / CHILDREN)
#define ROUNDS 6
#define INF 1000000

static int cost[NODES][NODES];
static int dist[2][NODES];
static pthread_barrier_t barrier;

static void* child(void* arg) {
    const int me = (int)(long)arg;
    for (int r = 0; r < ROUNDS; ++r) {
        const int cur = r % 2;
        for (int v = me * PER; v < (me + 1) * PER; ++v) {
            int best = dist[cur][v]; // RACE
            for (int u = 0; u < NODES; ++u)
                if (dist[cur][u] + cost[u][v] < best) best = dist[cur][u] + cost[u][v]; // RACE
            dist[cur][v] = best; /* should be dist[nxt][v] */                           // RACE
        }
        pthread_barrier_wait(&barrier);
    }
    return NULL;
}

int main(void) {
    for (int u = 0; u < NODES; ++u)
        for (int v = 0; v < NODES; ++v)
            cost[u][v] = u == v ? 0 : 1 + (u * 7 + v * 13) % 17;
    for (int v = 0; v < NODES; ++v)
        dist[0][v] = v == 0 ? 0 : INF;
    pthread_barrier_init(&barrier, NULL, CHILDREN);
    pthread_t t[CHILDREN];
    for (long c = 0; c < CHILDREN; ++c)
        pthread_create(&t[c], NULL, child, (void*)c);
    for (int c = 0; c < CHILDREN; ++c)
        pthread_join(t[c], NULL);
    printf("dist to last node: %d\n", dist[(ROUNDS - 1) % 2][NODES - 1]);
    return 0;
}
