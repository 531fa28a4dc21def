// Dependences on array sections and with iterators (OpenMP 5.1 2.19.11, 3.9 iterators): a
// section's dependence is on its storage (compilers pass its start), an iterator expands into
// one dependence per value. Each pair of tasks that share an element is ordered.
#include <stdio.h>

#define N 32
static int a[N], b[N], total;

int main(void) {
    for (int i = 0; i < N; ++i)
        a[i] = i;
#pragma omp parallel
#pragma omp single
    {
        for (int i = 0; i < N; i += 2) {
#pragma omp task depend(iterator(k = 0 : 2), out : a[i + k]) firstprivate(i)
            {
                a[i] += 1;
                a[i + 1] += 1;
            }
        }
        for (int i = 0; i < N; i += 2) {
#pragma omp task depend(iterator(k = i : i + 2), in : a[k]) depend(out : b[i]) firstprivate(i)
            b[i] = a[i] + a[i + 1];
        }
#pragma omp task depend(inout : a [0:N])
        a[0] = 0;
#pragma omp task depend(in : a [0:N]) depend(iterator(k = 0 : N : 2), in : b[k])
        for (int i = 0; i < N; i += 2)
            total += b[i] + a[0];
#pragma omp taskwait
    }
    printf("%d\n", total);
    return 0;
}
