// quick_exit (C11 7.22.4.7) from main while workers that counted under a mutex wait on it: the
// at_quick_exit handler reads the count under the mutex. quick_exit ends the process through
// the C library's own _Exit, which the runtime never saw: the trace was left unfinished (the
// handler's events lost, the workers' cut). The runtime's own at_quick_exit function, registered
// first, runs last and ends the trace as exit does.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;
static long count;
static int reported;

static void report(void) {
    pthread_mutex_lock(&lock);
    printf("counted: %d\n", count > 0);
    reported = 1;
    pthread_mutex_unlock(&lock);
}

static void* counter(void* arg) {
    (void)arg;
    pthread_mutex_lock(&lock);
    for (int i = 0; i < 1000 && !reported; ++i)
        ++count;
    // blocked in a call at exit, as a server thread would be (the exit flush completes it)
    while (!reported)
        pthread_cond_wait(&never, &lock);
    pthread_mutex_unlock(&lock);
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
