// A release sequence: the release store is followed by a relaxed RMW of another thread; an
// acquire load that reads the RMW's value still synchronizes with the release store.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
static int data;
static atomic_int count;
static void* producer(void* arg) {
    (void)arg;
    data = 7;
    atomic_store_explicit(&count, 1, memory_order_release);
    return NULL;
}
static void* bumper(void* arg) {
    (void)arg;
    while (atomic_load_explicit(&count, memory_order_relaxed) == 0) {
    }
    atomic_fetch_add_explicit(&count, 1, memory_order_relaxed);
    return NULL;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, producer, NULL);
    pthread_create(&b, NULL, bumper, NULL);
    while (atomic_load_explicit(&count, memory_order_acquire) != 2) {
    }
    int v = data;
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%d\n", v);
    return 0;
}
