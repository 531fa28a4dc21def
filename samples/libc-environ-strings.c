// The environment's strings (rt_libc_shared_state.cpp): a string given to putenv is the
// environment's entry, so getenv reads it; setenv reads the name and value it copies. Main puts
// a string it owns into the environment before the threads; in a first phase the writer
// rewrites it and the reader looks it up, in a second (after a barrier) the writer refills a
// buffer the reader then hands setenv, each phase's two steps ordered by a mutex. The racy
// variant has no mutex.
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_barrier_t phase;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char mode[] = "FRT_MODE=fast";
static char level[8] = "1";
static const char* found;

static void* writer(void* arg) {
    pthread_barrier_wait(&phase);
    pthread_mutex_lock(&lock);
    memcpy(mode + 9, "slow", 4);
    pthread_mutex_unlock(&lock);
    pthread_barrier_wait(&phase);
    pthread_mutex_lock(&lock);
    strcpy(level, "2");
    pthread_mutex_unlock(&lock);
    return arg;
}

static void* reader(void* arg) {
    pthread_barrier_wait(&phase);
    pthread_mutex_lock(&lock);
    found = getenv("FRT_MODE");
    pthread_mutex_unlock(&lock);
    pthread_barrier_wait(&phase);
    pthread_mutex_lock(&lock);
    setenv("FRT_LEVEL", level, 1);
    pthread_mutex_unlock(&lock);
    return arg;
}

int main(void) {
    putenv(mode);
    pthread_barrier_init(&phase, NULL, 2);
    pthread_t t[2];
    pthread_create(&t[0], NULL, writer, NULL);
    pthread_create(&t[1], NULL, reader, NULL);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    printf("%s %s\n", found, getenv("FRT_LEVEL"));
    return 0;
}
