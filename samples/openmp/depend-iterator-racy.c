// An iterator range that stops one element short (OpenMP 5.1 3.9: `k = 0 : 1` is k = 0 only):
// each reader depends on the writer of a[i] but not on that of a[i + 1].
#include <stdio.h>

#define N 32
static int a[N], b[N];

int main(void) {
#pragma omp parallel
#pragma omp single
    {
        for (int i = 0; i < N; ++i) {
#pragma omp task depend(iterator(k = i : i + 1), out : a[k]) firstprivate(i)
            a[i] = i; // RACE
        }
        for (int i = 0; i < N; i += 2) {
#pragma omp task depend(iterator(k = 0 : 1), in : a[i + k]) firstprivate(i)
            b[i] = a[i] + a[i + 1]; // RACE
        }
#pragma omp taskwait
    }
    printf("%d\n", b[2]);
    return 0;
}
