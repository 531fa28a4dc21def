// master has no implied barrier: the other threads read what the master thread writes.
// MIN-THREADS: 2
#include <omp.h>
#include <stdio.h>

static int stamp, seen[64];

int main(void) {
#pragma omp parallel
    {
        const int me = omp_get_thread_num();
#pragma omp master
        stamp = 7; // RACE
        seen[me] = stamp; // RACE
    }
    printf("%d\n", seen[0]);
    return 0;
}
