// pthread spinlocks; one thread updates the second counter without its lock.
#include <pthread.h>
#include <stdio.h>
static pthread_spinlock_t s;
static long locked, unlocked;
static void* worker(void* arg) {
    (void)arg;
    for (int i = 0; i < 100; ++i) {
        pthread_spin_lock(&s);
        ++locked;
        pthread_spin_unlock(&s);
        if (pthread_spin_trylock(&s) == 0) {
            ++locked;
            pthread_spin_unlock(&s);
        }
    }
    ++unlocked; // RACE
    return NULL;
}
int main(void) {
    pthread_spin_init(&s, PTHREAD_PROCESS_PRIVATE);
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%ld %ld\n", locked, unlocked);
    pthread_spin_destroy(&s);
    return 0;
}
