// Two phases separated by a barrier; after the last phase a neighbour's slot is read without
// a second barrier.
#include <pthread.h>
#include <stdio.h>
enum { N = 3 };
static pthread_barrier_t b;
static int slot[N];
static int seen[N];
static void* worker(void* arg) {
    const int id = (int)(long)arg;
    slot[id] = id + 1;
    pthread_barrier_wait(&b);
    seen[id] = slot[(id + 1) % N]; // RACE
    slot[id] = 0;                  // RACE
    return NULL;
}
int main(void) {
    pthread_barrier_init(&b, NULL, N);
    pthread_t t[N];
    for (long i = 0; i < N; ++i)
        pthread_create(&t[i], NULL, worker, (void*)i);
    for (int i = 0; i < N; ++i)
        pthread_join(t[i], NULL);
    pthread_barrier_destroy(&b);
    printf("%d %d %d\n", seen[0], seen[1], seen[2]);
    return 0;
}
