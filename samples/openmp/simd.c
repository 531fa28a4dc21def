// A parallel simd loop: lanes and threads write distinct elements.
#include <stdio.h>

#define N 1024
static float x[N], y[N];

int main(void) {
    for (int i = 0; i < N; ++i)
        x[i] = (float)i;
#pragma omp parallel for simd
    for (int i = 0; i < N; ++i)
        y[i] = 2.0f * x[i] + 1.0f;
    printf("%f\n", y[N - 1]);
    return 0;
}
