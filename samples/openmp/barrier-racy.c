// Each thread writes its own slot and reads its neighbour's without a barrier in between.
// MIN-THREADS: 2
#include <omp.h>
#include <stdio.h>

static int slot[64], seen[64];

int main(void) {
#pragma omp parallel
    {
        const int me = omp_get_thread_num(), n = omp_get_num_threads();
        slot[me] = me * 10;              // RACE
        seen[me] = slot[(me + 1) % n];   // RACE
    }
    printf("%d\n", seen[0]);
    return 0;
}
