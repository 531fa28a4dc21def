// Each thread writes its own slot, waits at a barrier, then reads its neighbour's slot.
#include <omp.h>
#include <stdio.h>

static int slot[64], seen[64];

int main(void) {
#pragma omp parallel
    {
        const int me = omp_get_thread_num(), n = omp_get_num_threads();
        slot[me] = me * 10;
#pragma omp barrier
        seen[me] = slot[(me + 1) % n];
    }
    printf("%d\n", seen[0]);
    return 0;
}
