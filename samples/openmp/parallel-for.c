// A statically scheduled parallel loop reading a[i + 1] and writing b[i]: every iteration
// writes its own element, nothing is written that another iteration reads.
#include <stdio.h>

#define N 1000
static int a[N + 1], b[N];

int main(void) {
    for (int i = 0; i <= N; ++i)
        a[i] = i;
#pragma omp parallel for
    for (int i = 0; i < N; ++i)
        b[i] = a[i + 1] + 1;
    printf("%d\n", b[N / 2]);
    return 0;
}
