// A thread replaces the program's image (execv of /bin/true) while two adders are still alive,
// blocked once they counted under a lock: the kernel ends them at the exec, and no atexit
// handler or destructor runs. The runtime finishes the trace before the exec as at exit (the
// blocked adders complete their events; the end line says `exec`). No race. (Everything was
// lost: no end line, every thread's unflushed records.) The exit status is /bin/true's.
#define _GNU_SOURCE
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long total;
static sem_t counted, never;

static void* adder(void* arg) {
    for (int i = 0; i < 1000; ++i) {
        pthread_mutex_lock(&lock);
        total += (long)arg;
        pthread_mutex_unlock(&lock);
    }
    sem_post(&counted);
    sem_wait(&never); // until the exec ends the process's threads
    return NULL;
}

static void* replacer(void* arg) {
    (void)arg;
    sem_wait(&counted);
    sem_wait(&counted);
    usleep(100000); // (main is in pthread_join by now, not inside the runtime: see below)
    pthread_mutex_lock(&lock);
    const long seen = total;
    pthread_mutex_unlock(&lock);
    if (seen != 3000) _exit(2);
    char* argv[] = {"true", NULL};
    execv("/bin/true", argv);
    _exit(3); // the exec failed
}

int main(void) {
    sem_init(&counted, 0, 0);
    sem_init(&never, 0, 0);
    pthread_t a, b, r;
    pthread_create(&a, NULL, adder, (void*)1);
    pthread_create(&b, NULL, adder, (void*)2);
    pthread_create(&r, NULL, replacer, NULL);
    // Never returns: the exec replaces the process. (A thread inside a runtime call when the
    // exec finishes the trace, e.g. still in pthread_create, is asked again until it is out.)
    pthread_join(r, NULL);
    return 4;
}
