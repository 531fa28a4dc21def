// Scalar and array reductions: each thread accumulates into its private copies, combined at the
// end of the loop.
#include <stdio.h>

#define N 1000
static double x[N];

int main(void) {
    double sum = 0.0;
    long hist[8] = {0};
    for (int i = 0; i < N; ++i)
        x[i] = i % 17;
#pragma omp parallel for reduction(+ : sum) reduction(+ : hist[:8]) schedule(dynamic, 16)
    for (int i = 0; i < N; ++i) {
        sum += x[i];
        hist[i % 8] += 1;
    }
    printf("%f %ld\n", sum, hist[3]);
    return 0;
}
