// A shared counter updated with atomic, read after the region.
#include <stdio.h>

static long hits;

int main(void) {
#pragma omp parallel for schedule(dynamic, 4)
    for (int i = 0; i < 200; ++i) {
        if (i % 3 == 0) {
#pragma omp atomic
            hits += 1;
        }
    }
    printf("%ld\n", hits);
    return 0;
}
