// A lock and a critical section do not exclude across the teams of a league: each binds to its
// team's contention group (OpenMP 5.1 2.19.1, 3.9). On a device each team has its own; on the
// host the runtime happens to share them, which the program cannot rely on.
#include <omp.h>
#include <stdio.h>

int main(void) {
    omp_lock_t lock;
    omp_init_lock(&lock);
    int locked = 0, critical = 0;
#pragma omp target map(tofrom : locked, critical)
#pragma omp teams distribute num_teams(2)
    for (int i = 0; i < 2; ++i) {
        omp_set_lock(&lock);
        locked += 1; // RACE
        omp_unset_lock(&lock);
#pragma omp critical
        critical += 1; // RACE
    }
    omp_destroy_lock(&lock);
    printf("%d %d\n", locked, critical);
    return 0;
}
