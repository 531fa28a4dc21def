// A parallel loop of N iterations with schedule(dynamic, 1): N chunks, each a process.
// `omp_dynamic_chunks N` (default 10^6). Used to check that recording and analysing 10^6 chunks
// stays within a minute and 2 GiB.
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
    const long n = argc > 1 ? atol(argv[1]) : 1000000;
    double* v = malloc(sizeof(double) * (size_t)n);
#pragma omp parallel for schedule(dynamic, 1)
    for (long i = 0; i < n; ++i)
        v[i] = (double)i * 0.5;
    double s = 0;
    for (long i = 0; i < n; ++i)
        s += v[i];
    printf("%f\n", s);
    free(v);
    return 0;
}
