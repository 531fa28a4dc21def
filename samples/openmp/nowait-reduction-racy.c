// A reduction on a `for nowait` is complete only at the next barrier: reading the result
// before it races with the other threads' combine.
// MIN-THREADS: 2
#include <omp.h>
#include <stdio.h>

#define N 256
static int v[N], seen[64];

int main(void) {
    int sum = 0;
    for (int i = 0; i < N; ++i)
        v[i] = 1;
#pragma omp parallel
    {
#pragma omp for reduction(+ : sum) nowait // RACE (the combine into sum)
        for (int i = 0; i < N; ++i)
            sum += v[i];
        seen[omp_get_thread_num() % 64] = sum; // RACE
    }
    printf("%d %d\n", sum, seen[0]);
    return 0;
}
