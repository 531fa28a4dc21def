// The updating tasks declare only an `in` dependence on acc: they wait for the out task but
// not for each other, so their updates race.
#include <stdio.h>

int main(void) {
    int acc = 0, seen = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task depend(out : acc) shared(acc)
        acc = 1;
        for (int k = 1; k <= 4; ++k) {
#pragma omp task depend(in : acc) shared(acc) firstprivate(k)
            acc += k; // RACE
        }
#pragma omp task depend(inout : acc) shared(acc, seen)
        seen = acc;
#pragma omp taskwait
    }
    printf("%d %d\n", acc, seen);
    return 0;
}
