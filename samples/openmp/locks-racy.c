// Two locks for one shared sum: updates under different locks race.
// MIN-THREADS: 2
#include <omp.h>
#include <stdio.h>

static omp_lock_t even_lock, odd_lock;
static long sum;

int main(void) {
    omp_init_lock(&even_lock);
    omp_init_lock(&odd_lock);
#pragma omp parallel for schedule(dynamic, 2)
    for (int i = 0; i < 64; ++i) {
        omp_lock_t* l = (i % 2) ? &odd_lock : &even_lock;
        omp_set_lock(l);
        sum += i; // RACE
        omp_unset_lock(l);
    }
    printf("%ld\n", sum);
    return 0;
}
