// taskwait waits for the children only, not for the grandchild: the grandchild's write races
// with the read after the taskwait.
#include <stdio.h>

int main(void) {
    int result = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task shared(result)
        {
#pragma omp task shared(result)
            result = 40; // RACE
        }
#pragma omp taskwait
        result += 2; // RACE
    }
    printf("%d\n", result);
    return 0;
}
