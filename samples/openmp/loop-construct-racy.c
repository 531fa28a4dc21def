// The `loop` construct: each iteration reads its neighbour's element that another iteration
// writes (a loop-carried dependence the construct does not allow).
// MIN-THREADS: 2
#include <stdio.h>

#define N 256
static int a[N + 1];

int main(void) {
#pragma omp parallel
    {
#pragma omp loop bind(parallel)
        for (int i = 0; i < N; ++i)
            a[i] = a[i + 1] + 1; // RACE
    }
    printf("%d\n", a[0]);
    return 0;
}
