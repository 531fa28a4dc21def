// Target constructs as tasks (OpenMP 5.1 2.14): `target nowait` is a deferred target task
// ordered by its dependences and by taskwait; `target update` and `target enter/exit data`
// with depend are target tasks too; `target data` maps for the regions inside it. A
// firstprivate struct is the target task's own copy (the deferred task carries it). All run on
// the host (gcc's entry points are supplied by the firstrace runtime).
#include <stdio.h>

#define N 64
static int v[N], w[N];

struct Scale {
    double factor;
    int offset[4];
};

int main(void) {
    int sum = 0, scaled[2] = {0, 0};
    struct Scale scale = {1.5, {1, 2, 3, 4}};
#pragma omp target enter data map(to : v [0:N])
#pragma omp parallel
#pragma omp single
    {
#pragma omp target nowait depend(out : v) map(tofrom : v [0:N])
        for (int i = 0; i < N; ++i)
            v[i] = i;
#pragma omp target update from(v [0:N]) depend(inout : v) nowait
#pragma omp target nowait depend(in : v) depend(out : w) map(to : v [0:N]) map(from : w [0:N])
        for (int i = 0; i < N; ++i)
            w[i] = 2 * v[i];
#pragma omp target nowait firstprivate(scale) map(tofrom : scaled) depend(out : scaled)
        {
            scale.offset[0] += 10;
            scaled[0] = (int)(scale.factor * scale.offset[0]);
        }
#pragma omp task depend(in : w)
        for (int i = 0; i < N; ++i)
            sum += w[i];
#pragma omp taskwait
    }
#pragma omp target exit data map(from : v [0:N])
#pragma omp target firstprivate(scale) map(tofrom : scaled)
    {
        scale.offset[1] += 20;
        scaled[1] = (int)(scale.factor * scale.offset[1]);
    }
#pragma omp target data map(tofrom : v [0:N])
    {
#pragma omp target
        for (int i = 0; i < N; ++i)
            v[i] += 1;
    }
    printf("%d %d %d %d %d\n", sum, v[N - 1], scaled[0], scaled[1], scale.offset[0]);
    return 0;
}
