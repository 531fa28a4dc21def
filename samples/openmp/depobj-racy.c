// depobj: the second writer's object only says `in`, so two writers with in dependences on x
// are unordered.
#include <omp.h>
#include <stdio.h>

int main(void) {
    int x = 0;
#pragma omp parallel
#pragma omp single
    {
        omp_depend_t reads;
#pragma omp depobj(reads) depend(in : x)
#pragma omp task depend(depobj : reads) shared(x)
        x += 1; // RACE
#pragma omp task depend(in : x) shared(x)
        x += 2; // RACE
#pragma omp taskwait
#pragma omp depobj(reads) destroy
    }
    printf("%d\n", x);
    return 0;
}
