// Orphaned worksharing (OpenMP 5.1 2.11.4): a `for` in a function called from a parallel
// region binds to that region's team; its implicit barrier orders the next phase.
#include <stdio.h>

#define N 128
static int a[N], b[N];

static void scale(int* out, const int* in, int n) {
#pragma omp for
    for (int i = 0; i < n; ++i)
        out[i] = 2 * in[i];
}

int main(void) {
    for (int i = 0; i < N; ++i)
        a[i] = i;
#pragma omp parallel
    {
        scale(b, a, N);
        scale(a, b, N); // reads b[i] written by other threads: after the barrier
    }
    printf("%d\n", a[N - 1]);
    return 0;
}
