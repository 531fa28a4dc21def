// Nested parallelism limited by omp_set_max_active_levels: inner regions beyond the limit run
// with one thread, still as regions of their own; each inner team writes its own row.
#include <omp.h>
#include <stdio.h>

static int grid[8][8];

int main(void) {
    omp_set_max_active_levels(1);
#pragma omp parallel num_threads(2)
    {
        const int row = omp_get_thread_num();
#pragma omp parallel num_threads(2)
        grid[row][omp_get_thread_num()] += 1;
    }
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
    {
        const int row = omp_get_thread_num() + 2;
#pragma omp parallel num_threads(2)
        grid[row][omp_get_thread_num()] += 1;
    }
    printf("%d\n", grid[0][0] + grid[2][1]);
    return 0;
}
