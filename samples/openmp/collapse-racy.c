// collapse(2) over a matrix whose rows depend on the previous row: iterations of different
// threads race.
// MIN-THREADS: 2
#include <stdio.h>

#define N 32
static int m[N][N];

int main(void) {
#pragma omp parallel for collapse(2)
    for (int i = 1; i < N; ++i)
        for (int j = 0; j < N; ++j)
            m[i][j] = m[i - 1][j] + 1; // RACE
    printf("%d\n", m[N - 1][0]);
    return 0;
}
