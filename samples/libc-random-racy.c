// libc-random.c with its two unprotected uses: drand48 from two threads without the mutex
// (glibc's drand48 state has no lock: MT-Unsafe race:drand48), and one struct random_data shared
// by two threads' random_r. rand() from both stays race-free (glibc locks it).
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static struct random_data state;
static char words[64];
static double sums[2];

static void* worker(void* arg) {
    const long id = (long)arg;
    int32_t r;
    random_r(&state, &r);                      // RACE
    sums[id] = drand48() + rand() % 2 + r % 2; // RACE
    return NULL;
}

int main(void) {
    initstate_r(1, words, sizeof words, &state);
    pthread_t t[2];
    for (long i = 0; i < 2; ++i)
        pthread_create(&t[i], NULL, worker, (void*)i);
    for (int i = 0; i < 2; ++i)
        pthread_join(t[i], NULL);
    printf("%d\n", sums[0] + sums[1] > 0);
    return 0;
}
