// A dynamically scheduled loop with a loop-carried dependence: chunk k writes what chunk k + 1
// reads. The chunks are logical processes: they race even when one thread runs both. (A team
// of one thread is serialized: the runtime hands out the whole loop as one chunk.)
// MIN-THREADS: 2
#include <stdio.h>

#define N 256
static int v[N + 1];

int main(void) {
    for (int i = 0; i <= N; ++i)
        v[i] = i;
#pragma omp parallel for schedule(dynamic, 8)
    for (int i = 0; i < N; ++i)
        v[i + 1] = v[i] + 1; // RACE
    printf("%d\n", v[N]);
    return 0;
}
