// An if clause that is true at run time makes a full team (OpenMP 5.1 2.6.1): every thread
// updates the counter the program meant for a serialized region.
// MIN-THREADS: 2
#include <omp.h>
#include <stdio.h>

static int count;

int main(void) {
    int n = 4;
#pragma omp parallel num_threads(1)
    count += 1;
#pragma omp parallel if (n < 100)
    count += omp_get_num_threads(); // RACE
    printf("%d\n", count);
    return 0;
}
