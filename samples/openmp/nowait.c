// Two loops with the same static schedule over the same iterations: with nowait, iteration i
// of the second loop runs on the thread that ran iteration i of the first (OpenMP 5.1
// 2.11.4), so reading a[i] there is race-free.
#include <stdio.h>

#define N 1000
static int a[N], b[N];

int main(void) {
#pragma omp parallel
    {
#pragma omp for schedule(static) nowait
        for (int i = 0; i < N; ++i)
            a[i] = i;
#pragma omp for schedule(static)
        for (int i = 0; i < N; ++i)
            b[i] = a[i] * 2;
    }
    printf("%d\n", b[N - 1]);
    return 0;
}
