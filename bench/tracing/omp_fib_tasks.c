// Recursive task program (fib-like): one explicit task per call, taskwait joins the two
// children. `omp_fib_tasks N` creates about fib(N + 1) * 2 tasks (N = 28: ~10^6 tasks). Used
// to check that recording and analysing 10^6 tasks stays within a minute and 2 GiB.
#include <stdio.h>
#include <stdlib.h>

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

int main(int argc, char** argv) {
    const int n = argc > 1 ? atoi(argv[1]) : 28;
    long r = 0;
#pragma omp parallel
#pragma omp single
    r = fib(n);
    printf("fib(%d) = %ld\n", n, r);
    return 0;
}
