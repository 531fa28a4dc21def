// The OpenMP form of shared_arrays.c (same work: blocks of shared arrays updated under
// per-block locks, every thread visiting every block), so that Archer -- an OpenMP-only tool --
// can be measured on the same computation (bench/tracing/run.sh runs firstrace, through OMPT,
// and clang + Archer on it in the same run).
//   usage: shared_arrays_omp [THREADS=4] [N=1<<20] [BLOCK=4096] [ROUNDS=20] [LOCKS=64]
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
    int threads = argc > 1 ? atoi(argv[1]) : 4, n = argc > 2 ? atoi(argv[2]) : 1 << 20;
    int block = argc > 3 ? atoi(argv[3]) : 4096, rounds = argc > 4 ? atoi(argv[4]) : 20;
    int nlocks = argc > 5 ? atoi(argv[5]) : 64;
    double* a = calloc((size_t)n, sizeof *a);
    double* b = malloc((size_t)n * sizeof *b);
    omp_lock_t* locks = malloc((size_t)nlocks * sizeof *locks);
    for (int i = 0; i < n; ++i)
        b[i] = i % 17;
    for (int i = 0; i < nlocks; ++i)
        omp_init_lock(&locks[i]);
    const int blocks = n / block;
#pragma omp parallel num_threads(threads)
    {
        const int me = omp_get_thread_num();
        for (int r = 0; r < rounds; ++r) {
            for (int k = 0; k < blocks; ++k) {
                const int blk = (k * 7 + me * (blocks / threads) + r) % blocks;
                omp_set_lock(&locks[blk % nlocks]);
                for (int i = blk * block; i < (blk + 1) * block; ++i)
                    a[i] = a[i] * 0.5 + b[i];
                omp_unset_lock(&locks[blk % nlocks]);
            }
        }
    }
    double sum = 0;
    for (int i = 0; i < n; ++i)
        sum += a[i];
    printf("sum %.1f\n", sum);
    for (int i = 0; i < nlocks; ++i)
        omp_destroy_lock(&locks[i]);
    free(locks);
    free(a);
    free(b);
    return 0;
}
