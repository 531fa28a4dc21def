// A spin lock on __sync_lock_test_and_set / __sync_lock_release and a counter of
// __atomic_fetch_add; __sync_synchronize publishes nothing on its own here.
#include <pthread.h>
#include <stdio.h>
static volatile int lock;
static long shared;
static long hits;
static void* worker(void* arg) {
    (void)arg;
    for (int i = 0; i < 1000; ++i) {
        while (__sync_lock_test_and_set(&lock, 1)) {
        }
        ++shared;
        __sync_lock_release(&lock);
        __atomic_fetch_add(&hits, 1, __ATOMIC_RELAXED);
        __sync_fetch_and_add(&hits, 1);
    }
    return NULL;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld %ld\n", shared, __atomic_load_n(&hits, __ATOMIC_SEQ_CST));
    return 0;
}
