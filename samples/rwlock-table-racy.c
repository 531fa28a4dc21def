// A lookup table behind a read-write lock where a reader also counts its hits in a shared
// counter while holding only the read lock: concurrent readers update it unsynchronized.
#define _XOPEN_SOURCE 700 /* POSIX 2008 with XSI: barriers, rwlocks, mutex types */
#include <pthread.h>
#include <stdio.h>

#define ENTRIES 32
#define READERS 3

static int table[ENTRIES];
static long hits;
static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
static pthread_barrier_t start;

static void* reader(void* arg) {
    const int me = (int)(long)arg;
    pthread_barrier_wait(&start);
    for (int i = 0; i < 200; ++i) {
        pthread_rwlock_rdlock(&lock);
        hits += table[(i * 7 + me) % ENTRIES] > 50; /* a write under the read lock */ // RACE
        pthread_rwlock_unlock(&lock);
    }
    return NULL;
}

static void* writer(void* arg) {
    (void)arg;
    pthread_barrier_wait(&start);
    for (int i = 0; i < 100; ++i) {
        pthread_rwlock_wrlock(&lock);
        table[i % ENTRIES] = i;
        pthread_rwlock_unlock(&lock);
    }
    return NULL;
}

int main(void) {
    pthread_barrier_init(&start, NULL, READERS + 1);
    pthread_t r[READERS], w;
    for (long i = 0; i < READERS; ++i)
        pthread_create(&r[i], NULL, reader, (void*)i);
    pthread_create(&w, NULL, writer, NULL);
    for (int i = 0; i < READERS; ++i)
        pthread_join(r[i], NULL);
    pthread_join(w, NULL);
    printf("hits %ld\n", hits);
    return 0;
}
