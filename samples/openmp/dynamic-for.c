// A dynamically scheduled loop whose chunks each write their own elements and read another
// array: race-free whichever thread runs which chunk. The loop variable and the private
// temporary live in the implicit task's frame, used by its chunks one after the other.
#include <stdio.h>

#define N 512
static double in[N], out[N];

int main(void) {
    for (int i = 0; i < N; ++i)
        in[i] = i * 0.5;
#pragma omp parallel
    {
        double scale = 2.0;
#pragma omp for schedule(dynamic, 4)
        for (int i = 0; i < N; ++i) {
            double t = in[i] * scale;
            out[i] = t + in[(i + 7) % N];
        }
    }
    printf("%f\n", out[N - 1]);
    return 0;
}
