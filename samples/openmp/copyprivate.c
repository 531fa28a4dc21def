// single copyprivate: one thread reads a value, the construct broadcasts it to all.
#include <omp.h>
#include <stdio.h>

static int out[64];

int main(void) {
#pragma omp parallel
    {
        int x;
#pragma omp single copyprivate(x)
        x = 41;
        out[omp_get_thread_num() % 64] = x + 1;
    }
    printf("%d\n", out[0]);
    return 0;
}
