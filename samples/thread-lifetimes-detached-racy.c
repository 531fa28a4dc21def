// Short detached threads one after the other, never ordered: the first has ended when main
// creates the second (main sleeps meanwhile, which orders nothing). glibc hands the first
// thread's cached stack and static TLS block to the second, and blocks the first freed come
// back to main and to the second: reuses that separate the lifetimes of those bytes, not an
// ordering of the threads. Both write `total`: a race in every run.
#define _DEFAULT_SOURCE /* usleep */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long total;

static void* worker(void* arg) {
    char* scratch = malloc(256); // freed below, reused by the next thread or by main
    memset(scratch, (int)(long)arg, 256);
    total += scratch[255]; // RACE
    free(scratch);
    return NULL;
}

int main(void) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    for (long round = 1; round <= 2; ++round) {
        pthread_t t;
        pthread_create(&t, &attr, worker, (void*)round);
        usleep(50000); // the worker ends meanwhile: its stack goes back to glibc's cache
    }
    char* mine = malloc(256);
    memset(mine, 3, 256);
    long sum = mine[0];
    free(mine);
    pthread_attr_destroy(&attr);
    return sum == 0;
}
