// A producer/consumer chain ordered by task dependences: out(x) -> in(x) readers -> inout(x),
// and an independent chain on y.
#include <stdio.h>

int main(void) {
    int x = 0, y = 0, r1 = 0, r2 = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task depend(out : x) shared(x)
        x = 42;
#pragma omp task depend(in : x) shared(x, r1)
        r1 = x + 1;
#pragma omp task depend(in : x) shared(x, r2)
        r2 = x + 2;
#pragma omp task depend(inout : x) shared(x)
        x = x * 2;
#pragma omp task depend(out : y) shared(y)
        y = 7;
#pragma omp task depend(in : x, y) shared(x, y)
        y = y + x;
#pragma omp taskwait
    }
    printf("%d %d %d %d\n", x, y, r1, r2);
    return 0;
}
