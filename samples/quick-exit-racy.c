// As quick-exit.c, but the at_quick_exit handler reads the count without the mutex: the
// workers, still running, keep changing it.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long count;

static void report(void) {
    printf("counted: %d\n", count > 0); // RACE
}

static void* counter(void* arg) {
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&lock);
        ++count; // RACE
        pthread_mutex_unlock(&lock);
        usleep(200); // mostly asleep when the exit flush comes: the trace stays complete
    }
    return NULL;
}

int main(void) {
    at_quick_exit(report);
    pthread_t workers[2];
    for (int i = 0; i < 2; ++i)
        pthread_create(&workers[i], NULL, counter, NULL);
    usleep(20000);
    quick_exit(0);
}
