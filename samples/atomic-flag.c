// Publication through a C11 atomic flag: the writer fills the data, then stores the flag with
// release order; the reader spins on an acquire load of the flag, then reads the data. The
// release/acquire pair orders the data accesses. No data races.
#define _XOPEN_SOURCE 700 /* POSIX 2008 with XSI: barriers, rwlocks, mutex types */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static int data[8];
static atomic_int ready;

static void* writer(void* arg) {
    (void)arg;
    for (int i = 0; i < 8; ++i)
        data[i] = i * i;
    atomic_store_explicit(&ready, 1, memory_order_release);
    return NULL;
}

static void* reader(void* arg) {
    long* sum = arg;
    while (!atomic_load_explicit(&ready, memory_order_acquire)) {
    }
    for (int i = 0; i < 8; ++i)
        *sum += data[i];
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
