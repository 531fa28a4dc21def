// A parallel simd loop with a loop-carried dependence: found between iterations that
// different threads run (simd lanes within one thread are not processes).
// MIN-THREADS: 2
#include <stdio.h>

#define N 1024
static int a[N + 1];

int main(void) {
#pragma omp parallel for simd
    for (int i = 0; i < N; ++i)
        a[i + 1] = a[i] + 1; // RACE
    printf("%d\n", a[N]);
    return 0;
}
