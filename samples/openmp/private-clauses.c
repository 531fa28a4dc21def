// firstprivate copies in tasks created in a loop, a private temporary, lastprivate of a loop.
#include <stdio.h>

static int out[40];

int main(void) {
    int base = 5, last = -1, tmp = 0;
#pragma omp parallel firstprivate(base)
    {
#pragma omp for lastprivate(last) private(tmp)
        for (int i = 0; i < 40; ++i) {
            tmp = i * base;
            out[i] = tmp;
            last = i;
        }
#pragma omp single
        for (int i = 0; i < 8; ++i) {
#pragma omp task firstprivate(i, base)
            out[i] += i + base;
        }
    }
    printf("%d %d\n", last, out[3]);
    return 0;
}
