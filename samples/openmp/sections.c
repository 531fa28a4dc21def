// Two sections fill different arrays; after the construct's barrier both are combined.
#include <stdio.h>

#define N 100
static int left[N], right[N], both[N];

int main(void) {
#pragma omp parallel
    {
#pragma omp sections
        {
#pragma omp section
            for (int i = 0; i < N; ++i)
                left[i] = i;
#pragma omp section
            for (int i = 0; i < N; ++i)
                right[i] = 2 * i;
        }
#pragma omp for
        for (int i = 0; i < N; ++i)
            both[i] = left[i] + right[i];
    }
    printf("%d\n", both[N - 1]);
    return 0;
}
