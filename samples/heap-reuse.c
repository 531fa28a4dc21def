// Heap blocks recycled between threads that are never joined: each detached worker fills two
// blocks, hands its result over through a semaphore, clears its scratch block and frees the
// other one; the scratch block is thread-specific data, freed by the key's destructor as the
// thread ends. The next worker (glibc gives it the previous one's arena) and main allocate
// blocks of the same sizes and get the freed ones. The allocator orders each reuse after the
// free, so nothing here races.
#define _DEFAULT_SOURCE /* usleep */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define ROUNDS 6
#define WORDS 64

static sem_t done;
static long results[ROUNDS];
static pthread_key_t scratch_key;

static void* worker(void* arg) {
    const long round = (long)arg;
    long* scratch = malloc(WORDS * sizeof(long) * 2);
    pthread_setspecific(scratch_key, scratch); // freed by the key's destructor
    for (int i = 0; i < 2 * WORDS; ++i)
        scratch[i] = i;
    long* block = malloc(WORDS * sizeof(long));
    for (int i = 0; i < WORDS; ++i)
        block[i] = round * i;
    long sum = 0;
    for (int i = 0; i < WORDS; ++i)
        sum += block[i];
    results[round] = sum;
    sem_post(&done);
    // after the post: nothing orders the following with the next worker, except the allocator
    for (int i = 0; i < 2 * WORDS; ++i)
        scratch[i] = 0;
    free(block);
    return NULL;
}

int main(void) {
    sem_init(&done, 0, 0);
    pthread_key_create(&scratch_key, free);
    long total = 0;
    for (long round = 0; round < ROUNDS; ++round) {
        pthread_t t;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        pthread_create(&t, &attr, worker, (void*)round);
        pthread_attr_destroy(&attr);
        sem_wait(&done);
        usleep(20000); // let the worker free its block and end
        long* mine = malloc(WORDS * sizeof(long));
        long* big = malloc(WORDS * sizeof(long) * 2);
        for (int i = 0; i < WORDS; ++i)
            mine[i] = results[round] + i;
        for (int i = 0; i < 2 * WORDS; ++i)
            big[i] = mine[i / 2];
        total += big[2 * WORDS - 1];
        free(big);
        free(mine);
    }
    usleep(20000);
    printf("total %ld\n", total);
    return 0;
}
