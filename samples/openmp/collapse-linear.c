// collapse(2) over disjoint elements and a linear clause: no race.
#include <stdio.h>

#define N 32
static int m[N][N], v[2 * N];

int main(void) {
#pragma omp parallel for collapse(2)
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j)
            m[i][j] = i + j;
    int k = 0;
#pragma omp parallel for linear(k : 2)
    for (int i = 0; i < N; ++i) {
        v[k] = i;
        k += 2;
    }
    printf("%d %d\n", m[N - 1][N - 1], v[2]);
    return 0;
}
