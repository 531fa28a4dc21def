// atomic capture on a counter that one thread also reads plainly: atomic vs plain access.
// MIN-THREADS: 2
#include <stdio.h>

static int counter, seen;

int main(void) {
#pragma omp parallel num_threads(2)
    {
        int mine;
#pragma omp atomic capture seq_cst     // RACE? (gcc attributes the atomic to this line)
        mine = counter++;              // RACE?
        if (mine == 0) seen = counter; // RACE
    }
    printf("%d %d\n", counter, seen);
    return 0;
}
