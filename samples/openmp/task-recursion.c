// Recursive tasks (fib): each call's children write into the caller's frame, the caller
// waits for them with taskwait. Later tasks reuse the same stack addresses for their own
// frames: different variables, no race.
#include <stdio.h>

static long fib(int n) {
    if (n < 2) return n;
    long a = 0, b = 0;
#pragma omp task shared(a) firstprivate(n)
    a = fib(n - 1);
#pragma omp task shared(b) firstprivate(n)
    b = fib(n - 2);
#pragma omp taskwait
    return a + b;
}

int main(void) {
    long r = 0;
#pragma omp parallel
#pragma omp single
    r = fib(12);
    printf("%ld\n", r);
    return 0;
}
