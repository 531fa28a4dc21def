// A lock made afresh where an old one was: a worker keeps a tally in a heap record guarded by
// the record's own mutex, destroys the mutex and frees the record; a second worker, ordered
// after the first by nothing but a relaxed flag, allocates a record of the same size (glibc
// maps it where the freed one was: both are above the mmap threshold), initializes its mutex
// and updates the same tally under it. pthread_mutex_init starts a new lock: the second
// worker's lock is not ordered after the first worker's unlock of the old one at that address,
// so the two updates race (firstrace before: the two mutexes were one object, the race hidden
// whenever the address was reused; ThreadSanitizer reports it).
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

enum { kRecordSize = 256 * 1024 };
struct record {
    pthread_mutex_t lock;
    char payload[kRecordSize - sizeof(pthread_mutex_t)];
};

static long tally;
static atomic_int first_done;
static void* records[2]; // each worker's record, for main to compare

static void* first(void* arg) {
    (void)arg;
    struct record* r = malloc(sizeof *r);
    pthread_mutex_init(&r->lock, NULL);
    pthread_mutex_lock(&r->lock);
    tally += 1; // RACE
    r->payload[0] = 1;
    pthread_mutex_unlock(&r->lock);
    pthread_mutex_destroy(&r->lock);
    records[0] = r; // compared by main after the joins
    free(r);
    atomic_store_explicit(&first_done, 1, memory_order_relaxed);
    return NULL;
}

static void* second(void* arg) {
    (void)arg;
    while (!atomic_load_explicit(&first_done, memory_order_relaxed))
        ;
    struct record* r = malloc(sizeof *r);
    pthread_mutex_init(&r->lock, NULL);
    pthread_mutex_lock(&r->lock);
    tally += 2; // RACE BUG in second NAMED tally
    r->payload[0] = 2;
    pthread_mutex_unlock(&r->lock);
    pthread_mutex_destroy(&r->lock);
    records[1] = r;
    free(r);
    return NULL;
}

int main(void) {
    mallopt(M_MMAP_THRESHOLD, 64 * 1024); // fixed: every record is a mapping of its own
    pthread_t a, b;
    pthread_create(&a, NULL, first, NULL);
    pthread_create(&b, NULL, second, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("tally %ld, address %s\n", tally, records[0] == records[1] ? "reused" : "not reused");
    return 0;
}
