// sections with lastprivate: the value of the lexically last section is copied out after
// the construct's barrier.
#include <stdio.h>

int main(void) {
    int x = 0, a = 0, b = 0;
#pragma omp parallel sections lastprivate(x)
    {
#pragma omp section
        {
            x = 1;
            a = x;
        }
#pragma omp section
        {
            x = 2;
            b = x;
        }
    }
    printf("%d %d %d\n", x, a, b);
    return 0;
}
