// taskloop: each task writes its own iterations; the implicit taskgroup ends the loop.
#include <stdio.h>

#define N 256
static int v[N];

int main(void) {
    long sum = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskloop grainsize(16)
        for (int i = 0; i < N; ++i)
            v[i] = 3 * i;
        for (int i = 0; i < N; ++i)
            sum += v[i];
    }
    printf("%ld\n", sum);
    return 0;
}
