// threadprivate counters (static TLS of each thread) seeded with copyin; each thread's copy
// persists into a second region and is then stored in the thread's own slot.
#include <omp.h>
#include <stdio.h>

static int tally;
#pragma omp threadprivate(tally)
static int result[64];

int main(void) {
    tally = 100;
#pragma omp parallel copyin(tally)
    {
#pragma omp for schedule(dynamic, 1)
        for (int i = 0; i < 32; ++i)
            tally += 1;
    }
#pragma omp parallel
    result[omp_get_thread_num()] = tally;
    printf("%d\n", result[0]);
    return 0;
}
