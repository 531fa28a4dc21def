// mutexinoutset: the tasks of one set run one at a time in any order, after the out task and
// before the in task.
#include <stdio.h>

int main(void) {
    int acc = 0, seen = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task depend(out : acc) shared(acc)
        acc = 1;
        for (int k = 1; k <= 4; ++k) {
#pragma omp task depend(mutexinoutset : acc) shared(acc) firstprivate(k)
            acc += k;
        }
#pragma omp task depend(in : acc) shared(acc, seen)
        seen = acc;
#pragma omp taskwait
    }
    printf("%d %d\n", acc, seen);
    return 0;
}
