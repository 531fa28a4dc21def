// A reduction on a `for nowait` is complete at the next barrier: the reads come after it.
#include <omp.h>
#include <stdio.h>

#define N 256
static int v[N], seen[64];

int main(void) {
    int sum = 0;
    for (int i = 0; i < N; ++i)
        v[i] = 1;
#pragma omp parallel
    {
#pragma omp for reduction(+ : sum) nowait
        for (int i = 0; i < N; ++i)
            sum += v[i];
#pragma omp barrier
        seen[omp_get_thread_num() % 64] = sum;
    }
    printf("%d %d\n", sum, seen[0]);
    return 0;
}
