// A doacross loop that waits for the wrong iteration: iteration i reads a[i - 1] but only
// waits for i - 2.
// MIN-THREADS: 2
// CLANG-ONLY: libomp 14's GOMP_doacross_wait crashes in a team of one thread (without firstrace
// too); gcc doacross loops at 2+ threads are traced like clang's (libomp calls __kmpc_doacross_*).
#include <stdio.h>

#define N 200
static int a[N];

int main(void) {
    a[0] = a[1] = 1;
#pragma omp parallel for ordered(1) schedule(dynamic, 1)
    for (int i = 2; i < N; ++i) {
#pragma omp ordered depend(sink : i - 2)
        a[i] = a[i - 1] + 1; // RACE
#pragma omp ordered depend(source)
    }
    printf("%d\n", a[N - 1]);
    return 0;
}
