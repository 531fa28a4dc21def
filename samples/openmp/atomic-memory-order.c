// atomic read/write/update/capture with memory-order clauses, every access atomic.
#include <stdio.h>

static int flag, value, total;

int main(void) {
#pragma omp parallel
    {
        int v;
#pragma omp atomic update relaxed
        total += 1;
#pragma omp atomic write release
        flag = 1;
#pragma omp atomic read acquire
        v = flag;
#pragma omp atomic capture acq_rel
        {
            v = value;
            value += 2;
        }
        (void)v;
    }
    printf("%d %d\n", total, value);
    return 0;
}
