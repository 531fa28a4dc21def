// The same counter updated under two differently named critical sections: they do not
// exclude each other.
// MIN-THREADS: 2
#include <stdio.h>

static long counter;

int main(void) {
#pragma omp parallel for schedule(dynamic, 3)
    for (int i = 0; i < 100; ++i) {
        if (i % 2) {
#pragma omp critical(odd)
            counter += i; // RACE
        } else {
#pragma omp critical(even)
            counter -= i; // RACE
        }
    }
    printf("%ld\n", counter);
    return 0;
}
