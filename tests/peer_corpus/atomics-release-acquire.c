// Publication by a release store and an acquire load, by a seq_cst exchange and a consume
// load, and by an acq_rel CAS loop.
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
static int data1, data2, data3;
static atomic_int flag1, flag2, token;
static void* producer(void* arg) {
    (void)arg;
    data1 = 1;
    atomic_store_explicit(&flag1, 1, memory_order_release);
    data2 = 2;
    atomic_exchange(&flag2, 1);
    data3 = 3;
    int expected = 0;
    while (!atomic_compare_exchange_weak_explicit(&token, &expected, 1, memory_order_acq_rel,
                                                  memory_order_relaxed))
        expected = 0;
    return NULL;
}
int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, producer, NULL);
    while (atomic_load_explicit(&flag1, memory_order_acquire) == 0) {
    }
    int v = data1;
    while (atomic_load_explicit(&flag2, memory_order_consume) == 0) {
    }
    v += data2;
    while (atomic_load_explicit(&token, memory_order_acquire) != 1) {
    }
    v += data3;
    pthread_join(t, NULL);
    printf("%d\n", v);
    return 0;
}
