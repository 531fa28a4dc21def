// Cancellation orders nothing (OpenMP 5.1 2.20): the task that cancels its taskgroup always
// runs, and it writes what a sibling created before the taskgroup (not a member, so not
// discarded) also writes, with no taskwait between them; and the first iteration of each
// thread's block writes a counter before `cancel for` stops the loop.
// MIN-THREADS: 2
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4096
static int a[N], first_seen, before, done[64];

int main(void) {
    setenv("OMP_CANCELLATION", "true", 1); // read when the OpenMP runtime starts
    for (int i = 0; i < N; ++i)
        a[i] = i % 1000;
#pragma omp parallel
    {
#pragma omp for schedule(static)
        for (int i = 0; i < N; ++i) {
            if (i == N / omp_get_num_threads() * omp_get_thread_num()) first_seen += 1; // RACE
            if (a[i] == 999) {
#pragma omp cancel for
            }
#pragma omp cancellation point for
        }
    }
#pragma omp parallel
#pragma omp single
    {
#pragma omp task shared(before)
        before = 1; // RACE
#pragma omp taskgroup
        {
            for (int i = 0; i < 64; ++i) {
#pragma omp task firstprivate(i)
                {
                    if (i == 0) {
                        before = 2; // RACE
#pragma omp cancel taskgroup
                    }
#pragma omp cancellation point taskgroup
                    done[i] = 1;
                }
            }
        }
#pragma omp taskwait
        printf("%d %d %d\n", omp_get_cancellation(), first_seen, before);
    }
    return 0;
}
