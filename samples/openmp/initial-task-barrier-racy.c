// The tasks of initial-task-barrier.c, read before the barrier that completes them.
#include <stdio.h>

static int a = 1, c;

int main(void) {
#pragma omp task shared(a, c)
    {
        a += 1; // RACE
#pragma omp task shared(c)
        c = 7; // RACE
    }
    printf("%d %d\n", a, c); // RACE
#pragma omp barrier
    printf("%d %d\n", a, c);
    return 0;
}
