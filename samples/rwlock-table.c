// A lookup table behind a read-write lock: readers look entries up concurrently under the read
// lock, a writer updates entries under the write lock. No data races.
#define _XOPEN_SOURCE 700 /* POSIX 2008 with XSI: barriers, rwlocks, mutex types */
#include <pthread.h>
#include <stdio.h>

#define ENTRIES 32
#define READERS 3

static int table[ENTRIES];
static long found[READERS];
static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;

static void* reader(void* arg) {
    const int me = (int)(long)arg;
    for (int i = 0; i < 200; ++i) {
        pthread_rwlock_rdlock(&lock);
        found[me] += table[(i * 7 + me) % ENTRIES];
        pthread_rwlock_unlock(&lock);
    }
    return NULL;
}

static void* writer(void* arg) {
    (void)arg;
    for (int i = 0; i < 100; ++i) {
        pthread_rwlock_wrlock(&lock);
        table[i % ENTRIES] = i;
        pthread_rwlock_unlock(&lock);
    }
    return NULL;
}

int main(void) {
    pthread_t r[READERS], w;
    for (long i = 0; i < READERS; ++i)
        pthread_create(&r[i], NULL, reader, (void*)i);
    pthread_create(&w, NULL, writer, NULL);
    long total = 0;
    for (int i = 0; i < READERS; ++i) {
        pthread_join(r[i], NULL);
        total += found[i];
    }
    pthread_join(w, NULL);
    printf("total %ld\n", total);
    return 0;
}
