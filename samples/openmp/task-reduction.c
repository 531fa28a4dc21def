// Task reductions (OpenMP 5.1 2.21.5.5-6): tasks of a taskgroup with task_reduction take part
// with in_reduction; each works on a private copy (libomp: one per thread, shared by the tasks
// that thread runs one after the other) that the end of the taskgroup combines into `sum`.
// Also a taskloop with a reduction clause and a parallel reduction with the task modifier.
#include <stdio.h>

#define N 64
static int v[N];

int main(void) {
    int sum = 0, product = 1, loop_sum = 0, team_sum = 0;
    for (int i = 0; i < N; ++i)
        v[i] = i + 1;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskgroup task_reduction(+ : sum) task_reduction(* : product)
        {
            for (int i = 0; i < N; ++i) {
#pragma omp task in_reduction(+ : sum) firstprivate(i)
                sum += v[i];
                if (i < 8) {
#pragma omp task in_reduction(* : product) firstprivate(i)
                    product *= 2;
                }
            }
        }
        printf("%d %d\n", sum, product);
#pragma omp taskloop reduction(+ : loop_sum) grainsize(4)
        for (int i = 0; i < N; ++i)
            loop_sum += v[i];
        printf("%d\n", loop_sum);
    }
#pragma omp parallel reduction(task, + : team_sum)
    {
#pragma omp single
        for (int i = 0; i < 16; ++i) {
#pragma omp task in_reduction(+ : team_sum)
            team_sum += 1;
        }
    }
    printf("%d\n", team_sum);
    return 0;
}
