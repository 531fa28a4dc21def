// A single-producer ring buffer with statistics in a malloc'd struct. Producer and consumer
// hand slots over under the ring's mutex, but two updates escaped it: the producer bumps
// `tail` after unlocking, and both threads add to `stats->sum` without the lock. firstrace
// names the heap block of `stats` by its allocation line.
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define SLOTS 16
#define ITEMS 200

struct ring {
    int slots[SLOTS];
    unsigned head;
    unsigned tail;
    pthread_mutex_t lock;
};

struct stats {
    long count;
    long max;
    long sum;
};

static struct ring ring = {.lock = PTHREAD_MUTEX_INITIALIZER};
static struct stats* stats;

static void record(long v) {
    stats->sum += v; // RACE? BUG in record
}

static int ring_put(int v) {
    pthread_mutex_lock(&ring.lock);
    const int full = ring.tail - ring.head == SLOTS;
    if (!full) ring.slots[ring.tail % SLOTS] = v;
    pthread_mutex_unlock(&ring.lock);
    if (!full) ring.tail++; // RACE? BUG in ring_put NAMED ring.tail
    return !full;
}

static int ring_get(int* v) {
    pthread_mutex_lock(&ring.lock);
    const int empty = ring.head == ring.tail; // RACE? BUG in ring_get HOLDING mutex ring.lock
    if (!empty) *v = ring.slots[ring.head++ % SLOTS];
    pthread_mutex_unlock(&ring.lock);
    return !empty;
}

static void* producer(void* arg) {
    (void)arg;
    for (int i = 1; i <= ITEMS;) {
        if (ring_put(i)) {
            record(i);
            ++i;
        }
    }
    return NULL;
}

static void* consumer(void* arg) {
    (void)arg;
    int got = 0, v = 0;
    while (got < ITEMS) {
        if (ring_get(&v)) {
            record(-v);
            ++got;
        }
    }
    return NULL;
}

int main(void) {
    stats = calloc(1, sizeof *stats); // ALLOC
    if (stats == NULL) return 1;
    pthread_t p, c;
    pthread_create(&p, NULL, producer, NULL);
    pthread_create(&c, NULL, consumer, NULL);
    pthread_join(p, NULL);
    pthread_join(c, NULL);
    printf("sum %ld\n", stats->sum);
    free(stats);
    return 0;
}
