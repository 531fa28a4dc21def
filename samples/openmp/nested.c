// Nested parallel regions: every inner thread writes its own cell of its outer thread's row.
#include <omp.h>
#include <stdio.h>

static int grid[8][8];

int main(void) {
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
    {
        const int outer = omp_get_thread_num();
#pragma omp parallel num_threads(2)
        grid[outer][omp_get_thread_num()] = outer * 10 + omp_get_thread_num();
        grid[outer][7] = grid[outer][0] + grid[outer][1];
    }
    printf("%d %d\n", grid[0][7], grid[1][7]);
    return 0;
}
