// A task that creates a child (a grandchild of the region's task): taskgroup waits for both.
#include <stdio.h>

int main(void) {
    int result = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskgroup
        {
#pragma omp task shared(result)
            {
#pragma omp task shared(result)
                result = 40;
            }
        }
        result += 2;
    }
    printf("%d\n", result);
    return 0;
}
