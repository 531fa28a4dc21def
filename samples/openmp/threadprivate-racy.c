// The counter should have been threadprivate: every thread updates the one global.
// MIN-THREADS: 2
#include <stdio.h>

static int tally;

int main(void) {
    tally = 100;
#pragma omp parallel
    tally += 1; // RACE
    printf("%d\n", tally);
    return 0;
}
