// A scan whose input phase also reads a neighbour's input, which another thread's block
// writes: the scan orders the prefixes, not the other accesses of the loop's iterations.
// MIN-THREADS: 2
#include <stdio.h>

#define N 256
static int a[N], inclusive[N];

int main(void) {
    for (int i = 0; i < N; ++i)
        a[i] = i % 7;
    int x = 0;
#pragma omp parallel for reduction(inscan, + : x)
    for (int i = 0; i < N; ++i) {
        x += a[i] + (i + 1 < N ? a[i + 1] : 0); // RACE
        a[i] = 0;                               // RACE
#pragma omp scan inclusive(x)
        inclusive[i] = x;
    }
    printf("%d %d\n", inclusive[N - 1], x);
    return 0;
}
