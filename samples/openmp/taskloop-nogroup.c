// taskloop nogroup followed by taskwait: the loop's tasks are children, so the taskwait
// orders them before the read.
#include <stdio.h>

#define N 64
static int v[N];

int main(void) {
    int sum = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskloop nogroup grainsize(8)
        for (int i = 0; i < N; ++i)
            v[i] = i;
#pragma omp taskwait
        for (int i = 0; i < N; ++i)
            sum += v[i];
    }
    printf("%d\n", sum);
    return 0;
}
