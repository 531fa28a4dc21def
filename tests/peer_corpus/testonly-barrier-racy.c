// ThreadSanitizer's test-only "invisible" barrier orders the threads' execution but creates
// no happens-before: the two writes race although they never overlap in time.
#include <pthread.h>
#include <stdio.h>
void __tsan_testonly_barrier_init(unsigned long long* barrier, unsigned count);
void __tsan_testonly_barrier_wait(unsigned long long* barrier);
static unsigned long long barrier;
static int shared;
static void* worker(void* arg) {
    (void)arg;
    shared = 1; // RACE
    __tsan_testonly_barrier_wait(&barrier);
    return NULL;
}
int main(void) {
    __tsan_testonly_barrier_init(&barrier, 2);
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    __tsan_testonly_barrier_wait(&barrier);
    shared = 2; // RACE
    pthread_join(t, NULL);
    printf("%d\n", shared);
    return 0;
}
