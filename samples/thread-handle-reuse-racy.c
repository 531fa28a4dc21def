// Joins of threads whose handles glibc hands on at once (see thread-handle-reuse.c), with one
// read that the join does not order: each parent peeks at its leaf's result before joining it.
#include <pthread.h>
#include <stdio.h>

enum { kParents = 2, kRounds = 200 };

static int result[kParents][kRounds];

struct job {
    int parent;
    int round;
};

static void* leaf(void* arg) {
    const struct job* j = arg;
    result[j->parent][j->round] = j->round + 1; // RACE
    return NULL;
}

static void* parent(void* arg) {
    const int p = (int)(long)arg;
    long sum = 0, early = 0;
    for (int r = 0; r < kRounds; ++r) {
        struct job j = {p, r};
        pthread_t t;
        pthread_create(&t, NULL, leaf, &j);
        early += result[p][r]; // RACE
        pthread_join(t, NULL);
        sum += result[p][r];
    }
    return (void*)(sum + early);
}

int main(void) {
    pthread_t parents[kParents];
    for (long p = 0; p < kParents; ++p)
        pthread_create(&parents[p], NULL, parent, (void*)p);
    long total = 0;
    for (int p = 0; p < kParents; ++p) {
        void* sum;
        pthread_join(parents[p], &sum);
        total += (long)sum;
    }
    printf("%ld %d\n", total, result[0][0]);
    return 0;
}
