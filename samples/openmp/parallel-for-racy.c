// A statically scheduled parallel loop with an anti-dependence: iteration i reads a[i + 1],
// which iteration i + 1 writes. The iterations at the boundary between two threads' parts
// race (a team of one thread runs the loop as one implicit task: no race then).
// MIN-THREADS: 2
#include <stdio.h>

#define N 1000
static int a[N + 1];

int main(void) {
    for (int i = 0; i <= N; ++i)
        a[i] = i;
#pragma omp parallel for
    for (int i = 0; i < N; ++i)
        a[i] = a[i + 1] + 1; // RACE
    printf("%d\n", a[N / 2]);
    return 0;
}
