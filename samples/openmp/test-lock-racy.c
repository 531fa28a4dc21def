// omp_test_lock and omp_test_nest_lock on two different locks: the threads that take one do
// not exclude those that take the other, whichever lock each got by testing.
// MIN-THREADS: 2
#include <omp.h>
#include <stdio.h>

static omp_lock_t lock;
static omp_nest_lock_t nest;
static int count;

int main(void) {
    omp_init_lock(&lock);
    omp_init_nest_lock(&nest);
#pragma omp parallel
    {
        if (omp_get_thread_num() % 2 == 0) {
            while (!omp_test_lock(&lock)) {
            }
            count += 1; // RACE
            omp_unset_lock(&lock);
        } else {
            while (!omp_test_nest_lock(&nest)) {
            }
            count += 1; // RACE
            omp_unset_nest_lock(&nest);
        }
    }
    omp_destroy_lock(&lock);
    omp_destroy_nest_lock(&nest);
    printf("%d\n", count);
    return 0;
}
