// An ordered region appends to a shared log in iteration order; the rest of each iteration
// runs in parallel.
#include <stdio.h>

static int log_[100], squares[100], n;

int main(void) {
#pragma omp parallel for ordered schedule(dynamic, 2)
    for (int i = 0; i < 100; ++i) {
        squares[i] = i * i;
#pragma omp ordered
        log_[n++] = squares[i];
    }
    printf("%d %d\n", n, log_[99]);
    return 0;
}
