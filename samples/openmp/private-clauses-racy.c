// The temporary should have been private: it lives in the frame that opened the region and
// every iteration writes it.
// MIN-THREADS: 2
#include <stdio.h>

static int out[40];

int main(void) {
    int tmp = 0;
#pragma omp parallel for
    for (int i = 0; i < 40; ++i) {
        tmp = i * 3; // RACE
        out[i] = tmp; // RACE
    }
    printf("%d\n", out[3]);
    return 0;
}
