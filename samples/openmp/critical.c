// A shared counter and a shared histogram updated in critical sections; two differently named
// criticals protect two different variables.
#include <stdio.h>

static long counter, hist[4];

int main(void) {
#pragma omp parallel for schedule(dynamic, 3)
    for (int i = 0; i < 100; ++i) {
#pragma omp critical
        counter += i;
#pragma omp critical(histogram)
        hist[i % 4] += 1;
    }
    printf("%ld %ld\n", counter, hist[1]);
    return 0;
}
