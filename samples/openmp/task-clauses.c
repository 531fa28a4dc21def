// Tasks with if(0), final, mergeable, untied and priority clauses, ordered by taskwait and
// by the undeferred execution of if(0).
#include <stdio.h>

int main(void) {
    int x = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task if (0) shared(x)
        x += 1;
        x += 10;
#pragma omp task final(1) mergeable shared(x)
        x += 2;
#pragma omp taskwait
#pragma omp task untied priority(3) shared(x)
        x += 4;
#pragma omp taskwait
    }
    printf("%d\n", x);
    return 0;
}
