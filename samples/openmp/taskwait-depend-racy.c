// taskwait depend on the wrong variable: x is read while its writer may still run.
#include <stdio.h>

int main(void) {
    int x = 0, y = 0, seen = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task depend(out : x) shared(x)
        x = 42; // RACE
#pragma omp task depend(out : y) shared(y)
        y = 1;
#pragma omp taskwait depend(in : y)
        seen = x; // RACE
#pragma omp taskwait
    }
    printf("%d %d %d\n", x, y, seen);
    return 0;
}
