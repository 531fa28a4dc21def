// nowait on the first loop, and the second loop reads the mirrored element: another thread may
// not have written it yet.
// MIN-THREADS: 2
#include <stdio.h>

#define N 1000
static int a[N], b[N];

int main(void) {
#pragma omp parallel
    {
#pragma omp for schedule(static) nowait
        for (int i = 0; i < N; ++i)
            a[i] = i; // RACE
#pragma omp for schedule(static)
        for (int i = 0; i < N; ++i)
            b[i] = a[N - 1 - i] * 2; // RACE
    }
    printf("%d\n", b[N - 1]);
    return 0;
}
