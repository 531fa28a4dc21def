// A user-defined reduction (declare reduction) over a struct.
#include <stdio.h>

struct pair {
    long lo, hi;
};
#pragma omp declare reduction(minmax                                                               \
                              : struct pair                                                        \
                              : omp_out.lo = omp_in.lo < omp_out.lo ? omp_in.lo : omp_out.lo,      \
                                omp_out.hi = omp_in.hi > omp_out.hi ? omp_in.hi : omp_out.hi)      \
    initializer(omp_priv = {1000000, -1})

int main(void) {
    struct pair r = {1000000, -1};
#pragma omp parallel for reduction(minmax : r)
    for (long i = 0; i < 1000; ++i) {
        long v = (i * 37) % 1001;
        if (v < r.lo) r.lo = v;
        if (v > r.hi) r.hi = v;
    }
    printf("%ld %ld\n", r.lo, r.hi);
    return 0;
}
