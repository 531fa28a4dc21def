// masked (OpenMP 5.1) and a barrier in an orphaned function order the update before the reads.
#include <omp.h>
#include <stdio.h>

static int config, out[64];

static void wait_all(void) {
#pragma omp barrier
}

int main(void) {
#pragma omp parallel
    {
#pragma omp masked
        config = 7;
        wait_all();
        out[omp_get_thread_num() % 64] = config;
    }
    printf("%d\n", out[0]);
    return 0;
}
