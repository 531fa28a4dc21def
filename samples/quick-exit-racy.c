// As quick-exit.c, but the at_quick_exit handler reads the count without the mutex: nothing
// orders the workers' counting before it.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;
static long count;

static void report(void) {
    printf("counted: %d\n", count > 0); // RACE
}

static void* counter(void* arg) {
    (void)arg;
    pthread_mutex_lock(&lock);
    count += 1000; // RACE
    // blocked in a call at exit, as a server thread would be (the exit flush completes it)
    for (;;)
        pthread_cond_wait(&never, &lock);
    return NULL;
}

int main(void) {
    at_quick_exit(report);
    pthread_t workers[2];
    for (int i = 0; i < 2; ++i)
        pthread_create(&workers[i], NULL, counter, NULL);
    usleep(50000);
    quick_exit(0);
}
