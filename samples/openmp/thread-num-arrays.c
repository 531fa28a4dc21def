// Per-thread partial sums indexed by omp_get_thread_num(), combined by one thread after the
// barrier.
#include <omp.h>
#include <stdio.h>

static long partial[64];
static long total;

int main(void) {
#pragma omp parallel
    {
        const int me = omp_get_thread_num();
        for (int i = me; i < 1000; i += omp_get_num_threads())
            partial[me] += i;
#pragma omp barrier
#pragma omp single
        for (int t = 0; t < omp_get_num_threads(); ++t)
            total += partial[t];
    }
    printf("%ld\n", total);
    return 0;
}
