// Nested parallelism with one active level: the inner region of each outer thread is a team of
// one, but the two inner teams still write one shared cell unordered.
#include <omp.h>
#include <stdio.h>

static int cell;

int main(void) {
    omp_set_max_active_levels(1);
#pragma omp parallel num_threads(2)
    {
#pragma omp parallel num_threads(2)
        cell += 1; // RACE
    }
    printf("%d\n", cell);
    return 0;
}
