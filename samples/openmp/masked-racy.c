// masked has no implied barrier: the other threads read while the primary writes.
// MIN-THREADS: 2
#include <omp.h>
#include <stdio.h>

static int config, out[64];

int main(void) {
#pragma omp parallel
    {
#pragma omp masked
        config = 7;                              // RACE
        out[omp_get_thread_num() % 64] = config; // RACE
    }
    printf("%d\n", out[0]);
    return 0;
}
