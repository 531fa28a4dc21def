// main returns right after creating a detached thread, which is usually still starting then:
// it has recorded nothing, so the trace is complete (before: "1 thread(s) were still running",
// 3 runs in 4). Two workers before it race on a counter (the race must be found).
#include <pthread.h>

static volatile long counter;

static void* worker(void* arg) {
    for (int i = 0; i < 1000; ++i)
        counter += (long)arg; // the race
    return NULL;
}

static void* late(void* arg) {
    return arg;
}

int main(void) {
    pthread_t a, b, d;
    pthread_create(&a, NULL, worker, (void*)1);
    pthread_create(&b, NULL, worker, (void*)2);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_create(&d, &attr, late, NULL);
    return 0;
}
