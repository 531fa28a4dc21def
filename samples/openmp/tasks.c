// Sibling tasks write different halves; the parent reads both after taskwait. Each task's
// firstprivate copy lives in the runtime's task block.
#include <stdio.h>

static int data[64];

int main(void) {
    int total = 0;
#pragma omp parallel
#pragma omp single
    {
        for (int part = 0; part < 4; ++part) {
#pragma omp task firstprivate(part)
            for (int i = part * 16; i < part * 16 + 16; ++i)
                data[i] = i * part;
        }
#pragma omp taskwait
        for (int i = 0; i < 64; ++i)
            total += data[i];
    }
    printf("%d\n", total);
    return 0;
}
