// taskyield orders nothing: tasks that yield before updating a shared counter race.
#include <stdio.h>

int main(void) {
    int total = 0;
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < 4; ++i) {
#pragma omp task shared(total)
        {
#pragma omp taskyield
            total += 1; // RACE
        }
    }
    printf("%d\n", total);
    return 0;
}
