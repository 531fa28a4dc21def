// Partial sums indexed by omp_get_thread_num(), but combined without waiting for the others.
// MIN-THREADS: 2
#include <omp.h>
#include <stdio.h>

static long partial[64];
static long total;

int main(void) {
#pragma omp parallel
    {
        const int me = omp_get_thread_num();
        for (int i = me; i < 1000; i += omp_get_num_threads())
            partial[me] += i; // RACE
#pragma omp master
        for (int t = 0; t < omp_get_num_threads(); ++t)
            total += partial[t]; // RACE
    }
    printf("%ld\n", total);
    return 0;
}
