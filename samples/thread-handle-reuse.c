// Joins of threads whose handles glibc hands on at once: two parents each create and join a
// leaf thread in a loop. A joined thread's descriptor (its pthread_t) goes back to glibc's
// stack cache as the join returns, and the other parent's next pthread_create may get it at
// once: the join must still be ordered after the thread it joined, not after the new thread
// that now has its handle. Each parent reads what its leaf wrote, after the join.
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
    result[j->parent][j->round] = j->round + 1;
    return NULL;
}

static void* parent(void* arg) {
    const int p = (int)(long)arg;
    long sum = 0;
    for (int r = 0; r < kRounds; ++r) {
        struct job j = {p, r};
        pthread_t t;
        pthread_create(&t, NULL, leaf, &j);
        pthread_join(t, NULL);
        sum += result[p][r];
    }
    return (void*)sum;
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
