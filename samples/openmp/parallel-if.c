// Parallel regions that run serialized (OpenMP 5.1 2.6.1): `if(false)` and `num_threads(1)`
// give a team of one thread, whose implicit task runs the region alone; `if(true)` a full team
// whose threads each write their own element. The host reads after each region.
#include <omp.h>
#include <stdio.h>

static int count, per_thread[64];

int main(void) {
    int n = 4;
#pragma omp parallel if (n > 100)
    count += omp_get_num_threads();
#pragma omp parallel num_threads(1)
    count += omp_get_num_threads();
#pragma omp parallel if (n < 100)
    per_thread[omp_get_thread_num() % 64] += 1;
#pragma omp parallel for if (0)
    for (int i = 0; i < 64; ++i)
        per_thread[i] += count;
    printf("%d %d\n", count, per_thread[0]);
    return 0;
}
