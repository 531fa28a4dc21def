// Memory from omp_alloc (OpenMP 5.1 2.13) and the allocate clause: each thread fills its own
// buffer; the buffers are read after the barrier and freed by their owners.
#include <omp.h>
#include <stdio.h>

#define N 64
static int* buffers[64];

int main(void) {
    int total = 0;
#pragma omp parallel reduction(+ : total)
    {
        const int me = omp_get_thread_num() % 64;
        int* mine = omp_alloc(N * sizeof(int), omp_default_mem_alloc);
        for (int i = 0; i < N; ++i)
            mine[i] = me;
        buffers[me] = mine;
#pragma omp barrier
        int local = 0;
#pragma omp parallel for allocate(omp_default_mem_alloc : local) private(local) num_threads(1)
        for (int i = 0; i < 1; ++i)
            local = buffers[0][N - 1];
        total += buffers[0][0] + local;
#pragma omp barrier
        omp_free(mine, omp_default_mem_alloc);
    }
    printf("%d\n", total);
    return 0;
}
