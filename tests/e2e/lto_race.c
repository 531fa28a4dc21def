// One race on a counter, built with -flto by check_wrapper_flags.cmake.
#include <pthread.h>
#include <stdio.h>

static int counter;

static void* worker(void* arg) {
    (void)arg;
    ++counter;
    return NULL;
}

int main(void) {
    pthread_t thread;
    pthread_create(&thread, NULL, worker, NULL);
    ++counter;
    pthread_join(thread, NULL);
    printf("%d\n", counter);
    return 0;
}
