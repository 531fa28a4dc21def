// A target region run on the host: every team of the league increments one mapped counter.
#include <stdio.h>

int main(void) {
    int count = 0;
#pragma omp target map(tofrom : count)
#pragma omp teams num_teams(2)
    count += 1; // RACE
    printf("%d\n", count);
    return 0;
}
