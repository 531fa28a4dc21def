// Publication through a relaxed atomic flag: relaxed atomics order no plain access.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
static int data;
static atomic_int flag;
static void* producer(void* arg) {
    (void)arg;
    data = 42; // RACE
    atomic_store_explicit(&flag, 1, memory_order_relaxed);
    return NULL;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, producer, NULL);
    while (atomic_load_explicit(&flag, memory_order_relaxed) == 0) {
    }
    int v = data; // RACE
    pthread_join(t, NULL);
    printf("%d\n", v);
    return 0;
}
