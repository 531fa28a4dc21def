// Detached threads one after the other: each adds to `total` and posts a semaphore that main
// waits for before it creates the next, then keeps working on its own stack, thread-local
// variable and heap block, and frees the block, all after the post. glibc hands its stack and
// static TLS block to the next thread and its freed block comes back to the next thread or to
// main: those reuses start new lifetimes of the bytes (nothing orders the end of one thread
// with the next), so nothing here races. (The racy variant: no semaphore.)
#define _DEFAULT_SOURCE /* usleep */
#include <pthread.h>
#include <semaphore.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ROUNDS 4

static long total;
static sem_t done;
static __thread long calls;

static void* worker(void* arg) {
    char* scratch = malloc(256);
    memset(scratch, (int)(long)arg, 256);
    total += scratch[255];
    sem_post(&done);
    // after the post: only the reuse of this storage relates it to the next thread
    volatile char frame[512];
    memset((char*)frame, 1, sizeof frame);
    ++calls;
    memset(scratch, 0, 256);
    free(scratch);
    return NULL;
}

int main(void) {
    sem_init(&done, 0, 0);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    for (long round = 1; round <= ROUNDS; ++round) {
        pthread_t t;
        pthread_create(&t, &attr, worker, (void*)round);
        sem_wait(&done);
        usleep(20000); // the worker ends meanwhile: its stack goes back to glibc's cache
    }
    char* mine = malloc(256);
    memset(mine, 3, 256);
    long sum = mine[0] + total;
    free(mine);
    pthread_attr_destroy(&attr);
    return sum == 0;
}
