// Task reductions: the combine at the end of the taskgroup updates `sum`, unordered with a task
// created before the taskgroup that updates it too (it is no member of the taskgroup).
// MIN-THREADS: 2 (libomp gives a team of one the original item as its only copy: no combine)
#include <stdio.h>

#define N 32
static int v[N];

int main(void) {
    int sum = 0;
    for (int i = 0; i < N; ++i)
        v[i] = i + 1;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task shared(sum)
        sum += 100; // RACE
#pragma omp taskgroup task_reduction(+ : sum) // RACE
        {
            for (int i = 0; i < N; ++i) {
#pragma omp task in_reduction(+ : sum) firstprivate(i)
                sum += v[i];
            }
        }
#pragma omp taskwait
    }
    printf("%d\n", sum);
    return 0;
}
