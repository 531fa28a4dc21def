// A sum accumulated without the reduction clause.
// MIN-THREADS: 2
#include <stdio.h>

#define N 64
static double x[N];

int main(void) {
    double sum = 0.0;
    for (int i = 0; i < N; ++i)
        x[i] = i % 17;
#pragma omp parallel for schedule(dynamic, 8)
    for (int i = 0; i < N; ++i)
        sum += x[i]; // RACE
    printf("%f\n", sum);
    return 0;
}
