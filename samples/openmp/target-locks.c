// Mutual exclusion inside a target region run on the host. A lock or a critical section binds
// to the contention group, the threads of one team (OpenMP 5.1 2.19.1, 3.9): with one team it
// orders the team's threads; atomics and reductions also combine correctly across teams.
#include <omp.h>
#include <stdio.h>

int main(void) {
    omp_lock_t lock;
    omp_init_lock(&lock);
    int locked = 0, critical = 0, atomic = 0, reduced = 0;
#pragma omp target map(tofrom : locked, critical, atomic)
#pragma omp teams num_teams(1)
#pragma omp distribute parallel for
    for (int i = 0; i < 64; ++i) {
        omp_set_lock(&lock);
        locked += 1;
        omp_unset_lock(&lock);
#pragma omp critical
        critical += 1;
#pragma omp atomic
        atomic += 1;
    }
#pragma omp target teams distribute parallel for num_teams(2) map(tofrom : atomic, reduced) reduction(+ : reduced)
    for (int i = 0; i < 64; ++i) {
#pragma omp atomic
        atomic += 1;
        reduced += i;
    }
    omp_destroy_lock(&lock);
    printf("%d %d %d %d\n", locked, critical, atomic, reduced);
    return 0;
}
