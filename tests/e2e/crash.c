// Dies from a signal after doing some traced work: argv[1] = "segv" (caught by the tracer,
// which flushes and re-raises) or "kill" (SIGKILL: nothing can be flushed at that moment).
#define _XOPEN_SOURCE 700 /* POSIX 2008 with XSI: barriers, rwlocks, mutex types */
#include <pthread.h>
#include <signal.h>
#include <string.h>

static int shared[16];
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void* worker(void* arg) {
    (void)arg;
    pthread_mutex_lock(&m);
    for (int i = 0; i < 16; ++i)
        shared[i] += i;
    pthread_mutex_unlock(&m);
    return NULL;
}

int main(int argc, char** argv) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
    for (int i = 0; i < 16; ++i)
        shared[i] *= 2;
    if (argc > 1 && strcmp(argv[1], "kill") == 0) raise(SIGKILL);
    volatile int* null = NULL;
    return *null;
}
