// Two sibling tasks update one shared variable; the parent reads it before waiting for them.
// They race even when one thread runs both tasks.
#include <stdio.h>

int main(void) {
    int shared = 0, seen = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task shared(shared)
        shared += 1; // RACE
#pragma omp task shared(shared)
        shared += 2; // RACE
        seen = shared; // RACE?
#pragma omp taskwait
    }
    printf("%d %d\n", shared, seen);
    return 0;
}
