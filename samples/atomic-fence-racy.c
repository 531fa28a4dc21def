// Fence synchronization (C11 7.17.4): a release fence before a relaxed store pairs with an
// acquire fence after a relaxed load that reads it. The racy variant puts the release fence
// after the store: then nothing orders the write of data before it.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
static int data;
static atomic_int flag;
static void* producer(void* arg) {
    (void)arg;
    data = 42; // RACE
    atomic_store_explicit(&flag, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    return NULL;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, producer, NULL);
    while (atomic_load_explicit(&flag, memory_order_relaxed) == 0) {
    }
    atomic_thread_fence(memory_order_acquire);
    int v = data; // RACE
    pthread_join(t, NULL);
    printf("%d\n", v);
    return 0;
}
