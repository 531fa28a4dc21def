// master taskloop: the primary thread creates the loop's tasks, the implicit taskgroup waits
// for them before the primary thread reads; the others wait at the barrier.
#include <stdio.h>

#define N 128
static int v[N];

int main(void) {
    int sum = 0;
#pragma omp parallel shared(sum)
    {
#pragma omp master taskloop grainsize(16)
        for (int i = 0; i < N; ++i)
            v[i] = i;
#pragma omp master
        for (int i = 0; i < N; ++i)
            sum += v[i];
#pragma omp barrier
        if (v[N - 1] != N - 1)
            printf("bad\n");
    }
    printf("%d\n", sum);
    return 0;
}
