// master taskloop: the other threads do not wait for the loop's tasks (master has no barrier):
// their reads race with the tasks' writes.
#include <omp.h>
#include <stdio.h>

#define N 128
static int v[N];
static int seen[64];

int main(void) {
#pragma omp parallel num_threads(2)
    {
#pragma omp master taskloop grainsize(16)
        for (int i = 0; i < N; ++i)
            v[i] = i; // RACE
        seen[omp_get_thread_num() % 64] = v[N - 1]; // RACE
    }
    printf("%d\n", seen[1]);
    return 0;
}
