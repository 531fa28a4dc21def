// Tasks generated outside every parallel region belong to the implicit parallel region, a team
// of one; a barrier there (an orphaned `omp barrier` in sequential code) completes them, and
// their descendants, as any barrier completes its team's tasks (OpenMP 5.1 2.19.2). libgomp's
// target-33.c reads, after such a barrier, what `target nowait` tasks wrote. Before, the
// initial task's barrier completed nothing: a false race on every value read after it.
#include <stdio.h>

static int a = 1, b = 2, c;

int main(void) {
#pragma omp task shared(a)
    a += 1;
#pragma omp task shared(b, c)
    {
        b *= 3;
#pragma omp task shared(c)
        c = 7; // a grandchild: complete at the barrier too
    }
#pragma omp barrier
    printf("%d %d %d\n", a, b, c);
#pragma omp target map(tofrom : a) nowait
    a += 10;
#pragma omp barrier
    printf("%d\n", a);
    return 0;
}
