// Synchronization by flush alone: a flag spun on with plain accesses and flushes orders
// nothing in the OpenMP memory model (flag and data need atomics); both race.
// MIN-THREADS: 2
#include <omp.h>
#include <stdio.h>

static int data, flag, got;

int main(void) {
#pragma omp parallel num_threads(2)
    {
        if (omp_get_num_threads() == 2) {
            if (omp_get_thread_num() == 0) {
                data = 42; // RACE
#pragma omp flush
                flag = 1; // RACE
#pragma omp flush
            } else {
                int seen = 0;
                while (!seen) {
#pragma omp flush
                    seen = flag; // RACE
                }
#pragma omp flush
                got = data; // RACE
            }
        }
    }
    printf("%d\n", got);
    return 0;
}
