// Nested parallel regions: the inner threads of both outer threads write one shared cell.
#include <omp.h>
#include <stdio.h>

static int cell;

int main(void) {
    omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
    {
#pragma omp parallel num_threads(2)
        cell += omp_get_thread_num(); // RACE
    }
    printf("%d\n", cell);
    return 0;
}
