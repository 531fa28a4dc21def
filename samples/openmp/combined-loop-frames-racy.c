// The combined loops of combined-loop-frames.c: each chunk's frames are its own, but the total
// is updated by every iteration without an atomic. (A team of one thread is serialized: one
// chunk.)
// MIN-THREADS: 2
#include <stdio.h>

#define N 64
static int in[N], total;

__attribute__((noinline)) static void publish(int* p) {
    __asm__ volatile("" : : "r"(p) : "memory");
}

__attribute__((noinline)) static void work(int i) {
    int local[2];
    local[0] = in[i];
    local[1] = i;
    publish(local);
    total += local[0] + local[1]; // RACE
}

int main(void) {
#pragma omp parallel
    {
#pragma omp for schedule(dynamic)
        for (int i = 0; i < N; ++i)
            work(i);
    }
    printf("%d\n", total);
    return 0;
}
