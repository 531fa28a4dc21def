// taskloop nogroup: the encountering task does not wait for the loop's tasks before reading.
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
            v[i] = i; // RACE
        for (int i = 0; i < N; ++i)
            sum += v[i]; // RACE
#pragma omp taskwait
    }
    printf("%d\n", sum);
    return 0;
}
