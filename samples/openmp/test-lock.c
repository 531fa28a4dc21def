// omp_test_lock and omp_test_nest_lock in retry loops (the nest lock taken twice), a lock
// initialized with a hint and a critical section with a hint: updates under the lock.
#include <omp.h>
#include <stdio.h>

static omp_lock_t lock, hinted;
static omp_nest_lock_t nest;
static int count, other, nested, critical;

int main(void) {
    omp_init_lock(&lock);
    omp_init_lock_with_hint(&hinted, omp_sync_hint_contended);
    omp_init_nest_lock(&nest);
#pragma omp parallel
    {
        while (!omp_test_lock(&lock)) {
        }
        count += 1;
        omp_unset_lock(&lock);
        omp_set_lock(&hinted);
        other += 1;
        omp_unset_lock(&hinted);
        while (!omp_test_nest_lock(&nest)) {
        }
        omp_set_nest_lock(&nest);
        nested += 1;
        omp_unset_nest_lock(&nest);
        omp_unset_nest_lock(&nest);
#pragma omp critical(hinted_section) hint(omp_sync_hint_speculative)
        critical += 1;
    }
    omp_destroy_lock(&lock);
    omp_destroy_lock(&hinted);
    omp_destroy_nest_lock(&nest);
    printf("%d %d %d %d\n", count, other, nested, critical);
    return 0;
}
