// Publication through a C11 atomic flag with relaxed order: the flag itself is atomic, but a
// relaxed store/load pair does not order the data accesses around it.
#define _XOPEN_SOURCE 700 /* POSIX 2008 with XSI: barriers, rwlocks, mutex types */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static int data[8];
static atomic_int ready;

static void* writer(void* arg) {
    (void)arg;
    for (int i = 0; i < 8; ++i)
        data[i] = i * i; // RACE
    atomic_store_explicit(&ready, 1, memory_order_relaxed);
    return NULL;
}

static void* reader(void* arg) {
    long* sum = arg;
    while (!atomic_load_explicit(&ready, memory_order_relaxed)) {
    }
    for (int i = 0; i < 8; ++i)
        *sum += data[i]; // RACE
    return NULL;
}

int main(void) {
    long sum = 0;
    pthread_t w, r;
    pthread_create(&r, NULL, reader, &sum);
    pthread_create(&w, NULL, writer, NULL);
    pthread_join(w, NULL);
    pthread_join(r, NULL);
    printf("sum %ld\n", sum);
    return 0;
}
