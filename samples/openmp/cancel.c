// Cancellation (OpenMP 5.1 2.20): `cancel for` ends a loop early (the threads still meet at the
// loop's barrier), `cancel taskgroup` discards the group's tasks that have not started (the
// end of the taskgroup still waits for those that did), and a cancellation point in a task.
// Cancellation changes which iterations and tasks run, not what orders them: the reads after
// the loop and after the taskgroup are ordered by the barrier and by the taskgroup's end.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4096
static int a[N], found = -1, done[64], before;

int main(void) {
    setenv("OMP_CANCELLATION", "true", 1); // read when the OpenMP runtime starts
    for (int i = 0; i < N; ++i)
        a[i] = i % 1000;
    int seen = 0;
#pragma omp parallel
    {
#pragma omp for
        for (int i = 0; i < N; ++i) {
            if (a[i] == 999) {
#pragma omp critical
                if (found < 0 || i < found) found = i;
#pragma omp cancel for
            }
#pragma omp cancellation point for
        }
#pragma omp single
        seen = found;
    }
#pragma omp parallel
#pragma omp single
    {
#pragma omp task shared(before)
        before = 1;
#pragma omp taskwait
#pragma omp taskgroup
        {
            for (int i = 0; i < 64; ++i) {
#pragma omp task firstprivate(i)
                {
                    if (i == 0) {
                        before = 2;
#pragma omp cancel taskgroup
                    }
#pragma omp cancellation point taskgroup
                    done[i] = 1;
                }
            }
        }
        int count = 0;
        for (int i = 0; i < 64; ++i)
            count += done[i];
        printf("%d %d %d %d\n", omp_get_cancellation(), seen >= 0, before, count > 0);
    }
    return 0;
}
