// Two sections update the same counter.
// MIN-THREADS: 2
#include <stdio.h>

static int counter;

int main(void) {
#pragma omp parallel sections
    {
#pragma omp section
        counter += 1; // RACE
#pragma omp section
        counter += 2; // RACE
    }
    printf("%d\n", counter);
    return 0;
}
