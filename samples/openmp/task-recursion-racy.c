// Recursive tasks without the taskwait: the caller reads what its children write.
#include <stdio.h>

static long fib(int n) {
    if (n < 2) return n;
    long a = 0, b = 0;
#pragma omp task shared(a) firstprivate(n)
    a = fib(n - 1); // RACE
#pragma omp task shared(b) firstprivate(n)
    b = fib(n - 2); // RACE
    long r = a + b; // RACE
#pragma omp taskwait
    return r;
}

int main(void) {
    long r = 0;
#pragma omp parallel
#pragma omp single
    r = fib(8);
    printf("%ld\n", r);
    return 0;
}
