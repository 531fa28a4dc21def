// single (with its implicit barrier) publishes a value that every thread reads; master has no
// barrier, so an explicit one follows it.
#include <omp.h>
#include <stdio.h>

static int config, stamp, seen[64], seen2[64];

int main(void) {
#pragma omp parallel
    {
        const int me = omp_get_thread_num();
#pragma omp single
        config = 42;
        seen[me] = config;
#pragma omp master
        stamp = 7;
#pragma omp barrier
        seen2[me] = stamp;
    }
    printf("%d %d\n", seen[0], seen2[0]);
    return 0;
}
