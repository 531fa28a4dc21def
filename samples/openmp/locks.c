// omp_set_lock / omp_unset_lock around a shared sum; a nest lock around a recursive update.
#include <omp.h>
#include <stdio.h>

static omp_lock_t lock;
static omp_nest_lock_t nest;
static long sum, depth_total;

static void add_depth(int d) {
    omp_set_nest_lock(&nest);
    depth_total += d;
    if (d > 0) add_depth(d - 1);
    omp_unset_nest_lock(&nest);
}

int main(void) {
    omp_init_lock(&lock);
    omp_init_nest_lock(&nest);
#pragma omp parallel for schedule(dynamic, 2)
    for (int i = 0; i < 64; ++i) {
        omp_set_lock(&lock);
        sum += i;
        omp_unset_lock(&lock);
        add_depth(i % 3);
    }
    omp_destroy_lock(&lock);
    omp_destroy_nest_lock(&nest);
    printf("%ld %ld\n", sum, depth_total);
    return 0;
}
