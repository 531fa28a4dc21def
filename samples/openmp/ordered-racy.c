// The append is split: the index is bumped inside the ordered region, the slot written outside.
// MIN-THREADS: 2
#include <stdio.h>

static int log_[16], n;

int main(void) {
#pragma omp parallel for ordered schedule(dynamic, 2)
    for (int i = 0; i < 16; ++i) {
        int slot;
#pragma omp ordered
        slot = n++; // RACE
        log_[slot] = i * i + n; // RACE
    }
    printf("%d %d\n", n, log_[15]);
    return 0;
}
