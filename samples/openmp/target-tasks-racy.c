// A deferred target task (`target nowait`) is ordered only by dependences, taskwait and
// barriers: the host reads what it writes before waiting for it, and a second target task
// depends on a different variable.
#include <stdio.h>

#define N 64
static int v[N], w[N];

int main(void) {
    int early = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp target nowait depend(out : v) map(tofrom : v [0:N])
        for (int i = 0; i < N; ++i)
            v[i] = i; // RACE
#pragma omp target nowait depend(in : w) map(to : v [0:N]) map(from : w [0:N])
        for (int i = 0; i < N; ++i)
            w[i] = 2 * v[i]; // RACE
        early = v[N - 1];    // RACE
#pragma omp taskwait
    }
    printf("%d %d\n", early, w[N - 1]);
    return 0;
}
