// Scans (OpenMP 5.1 2.11.8, `reduction(inscan, ...)` with `scan inclusive/exclusive`): each
// iteration sees the prefix reduction of the iterations before it. The runtime computes the
// prefixes of the threads' blocks between barriers (gcc: a team-shared buffer, which libomp 14
// does not supply to gcc's code: the firstrace runtime does); the results are read after the
// loops.
#include <stdio.h>

#define N 256
static int a[N], inclusive[N], exclusive[N];

int main(void) {
    for (int i = 0; i < N; ++i)
        a[i] = i % 7;
    int x = 0, y = 0;
#pragma omp parallel for reduction(inscan, + : x)
    for (int i = 0; i < N; ++i) {
        x += a[i];
#pragma omp scan inclusive(x)
        inclusive[i] = x;
    }
#pragma omp parallel for reduction(inscan, + : y)
    for (int i = 0; i < N; ++i) {
        exclusive[i] = y;
#pragma omp scan exclusive(y)
        y += a[i];
    }
    printf("%d %d %d %d\n", inclusive[N - 1], exclusive[N - 1], x, y);
    return 0;
}
