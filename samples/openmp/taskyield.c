// taskyield (OpenMP 5.1 2.12.4) is a scheduling point, not a synchronization: tasks that yield
// while waiting on a lock they test are ordered by the lock.
#include <omp.h>
#include <stdio.h>

int main(void) {
    int total = 0;
    omp_lock_t lock;
    omp_init_lock(&lock);
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < 8; ++i) {
#pragma omp task shared(total, lock)
        {
            while (!omp_test_lock(&lock)) {
#pragma omp taskyield
            }
            total += 1;
            omp_unset_lock(&lock);
        }
    }
    omp_destroy_lock(&lock);
    printf("%d\n", total);
    return 0;
}
