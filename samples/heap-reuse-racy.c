// A block freed while another thread still uses it: the worker keeps writing into the shared
// buffer after main has freed it (main only waited for the first result). free() is a write
// of the whole block, so the worker's late writes race with it.
#define _DEFAULT_SOURCE /* usleep */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define WORDS 64

static sem_t first;
static long* buffer;
static long first_result;

static void* worker(void* arg) {
    (void)arg;
    buffer[0] = 42; // before the post: ordered before the free
    first_result = buffer[0];
    sem_post(&first);
    for (int i = 1; i < WORDS; ++i)
        buffer[i] = i; // RACE
    return NULL;
}

int main(void) {
    sem_init(&first, 0, 0);
    buffer = malloc(WORDS * sizeof(long));
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    sem_wait(&first);
    usleep(20000);
    free(buffer); // RACE
    pthread_join(t, NULL);
    printf("first %ld\n", first_result);
    return 0;
}
