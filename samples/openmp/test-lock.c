// omp_test_lock in a retry loop and a lock initialized with a hint: updates under the lock.
#include <omp.h>
#include <stdio.h>

static omp_lock_t lock, hinted;
static int count, other;

int main(void) {
    omp_init_lock(&lock);
    omp_init_lock_with_hint(&hinted, omp_sync_hint_contended);
#pragma omp parallel
    {
        while (!omp_test_lock(&lock)) {
        }
        count += 1;
        omp_unset_lock(&lock);
        omp_set_lock(&hinted);
        other += 1;
        omp_unset_lock(&hinted);
    }
    omp_destroy_lock(&lock);
    omp_destroy_lock(&hinted);
    printf("%d %d\n", count, other);
    return 0;
}
