// taskwait depend (OpenMP 5.0): waits only for the sibling that writes x; y's writer may
// still run.
#include <stdio.h>

int main(void) {
    int x = 0, y = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task depend(out : x) shared(x)
        x = 42;
#pragma omp task depend(out : y) shared(y)
        y = 1;
#pragma omp taskwait depend(in : x)
        printf("%d\n", x);
#pragma omp taskwait
    }
    printf("%d\n", y);
    return 0;
}
