// volatile is not synchronization: a volatile counter incremented by two threads races.
#include <pthread.h>
#include <stdio.h>
static volatile long counter;
static void* worker(void* arg) {
    (void)arg;
    for (int i = 0; i < 100; ++i)
        counter = counter + 1; // RACE
    return NULL;
}
int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld\n", counter);
    return 0;
}
