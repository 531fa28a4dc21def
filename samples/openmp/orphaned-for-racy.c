// Orphaned worksharing with nowait: the second phase reads elements other threads write in
// the first (reversed index), with no barrier between.
// MIN-THREADS: 2
#include <stdio.h>

#define N 128
static int a[N], b[N];

static void reverse_scale(int* out, const int* in, int n) {
#pragma omp for nowait
    for (int i = 0; i < n; ++i)
        out[i] = 2 * in[n - 1 - i]; // RACE
}

int main(void) {
    for (int i = 0; i < N; ++i)
        a[i] = i;
#pragma omp parallel
    {
        reverse_scale(b, a, N);
        reverse_scale(a, b, N);
    }
    printf("%d\n", a[N - 1]);
    return 0;
}
