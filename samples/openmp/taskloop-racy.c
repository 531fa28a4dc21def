// taskloop with a loop-carried dependence: the tasks race (also when one thread runs them).
#include <stdio.h>

#define N 256
static int v[N + 1];

int main(void) {
#pragma omp parallel
#pragma omp single
#pragma omp taskloop grainsize(16)
    for (int i = 0; i < N; ++i)
        v[i + 1] = v[i] + 1; // RACE
    printf("%d\n", v[N]);
    return 0;
}
