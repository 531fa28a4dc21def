// Dependences that miss one variable: the two producers are ordered only on x and y, but both
// also update z. The consumer depends on both and does not race.
#include <stdio.h>

int main(void) {
    int x = 0, y = 0, z = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task depend(out : x) shared(x, z)
        {
            x = 1;
            z = 5; // RACE
        }
#pragma omp task depend(out : y) shared(y, z)
        {
            y = 2;
            z += 1; // RACE
        }
#pragma omp task depend(in : x, y) shared(x, y, z)
        z += x + y;
#pragma omp taskwait
    }
    printf("%d %d %d\n", x, y, z);
    return 0;
}
