// depobj (OpenMP 5.1 2.19.10.1): dependences stored in depend objects order the tasks as the
// same clauses would; `depobj update` turns the reader's object into an inout.
#include <omp.h>
#include <stdio.h>

int main(void) {
    int x = 0, y = 0;
#pragma omp parallel
#pragma omp single
    {
        omp_depend_t writes, reads;
#pragma omp depobj(writes) depend(inout : x)
#pragma omp depobj(reads) depend(in : x)
#pragma omp task depend(depobj : writes) shared(x)
        x = 1;
#pragma omp task depend(depobj : reads) shared(x, y)
        y = x;
#pragma omp depobj(reads) update(inout)
#pragma omp task depend(depobj : reads) shared(x)
        x += 2;
#pragma omp taskwait
#pragma omp depobj(writes) destroy
#pragma omp depobj(reads) destroy
    }
    printf("%d %d\n", x, y);
    return 0;
}
