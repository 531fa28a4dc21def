// Tasks with final, mergeable, untied and priority clauses still race on a shared variable.
#include <stdio.h>

int main(void) {
    int x = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task final(1) mergeable shared(x)
        x += 1; // RACE
#pragma omp task untied priority(3) shared(x)
        x += 2; // RACE
#pragma omp taskwait
    }
    printf("%d\n", x);
    return 0;
}
