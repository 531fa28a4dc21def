// Host teams (OpenMP 5.0: `teams` outside a target region): the initial threads of the league
// all increment one counter; the read after the league is ordered by its end.
#include <stdio.h>

static int count;

int main(void) {
#pragma omp teams num_teams(2)
    count += 1; // RACE
    printf("%d\n", count);
    return 0;
}
