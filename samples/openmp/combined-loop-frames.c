// gcc compiles a `parallel` region holding only a dynamically, guided or runtime scheduled loop
// into one call (GOMP_parallel_loop_*), inside which libomp 14 runs the region's function for
// the encountering thread without telling OMPT the implicit task's exit frame. Each chunk calls
// a function whose local array escapes: the chunks run one after the other on a thread reuse
// those frames, which are each chunk's own (before: every chunk of the encountering thread
// raced with the others in them; gcc only, clang's entry points set the frame). Also with a
// task created in each chunk (its data block is built in the creating function's frame) and
// an atomic update.
#include <stdio.h>

#define N 64
static int in[N], out[N], mismatches;

__attribute__((noinline)) static void publish(int* p) {
    __asm__ volatile("" : : "r"(p) : "memory");
}

__attribute__((noinline)) static void work(int i) {
    int local[4];
    local[0] = in[i];
    local[1] = i;
    publish(local);
    out[i] = local[0] + local[1];
}

__attribute__((noinline)) static void check(const int* array) {
#pragma omp task
    {
        if (array[0] != 0)
#pragma omp atomic
            mismatches++;
    }
}

int main(void) {
#pragma omp parallel
    {
#pragma omp for schedule(dynamic)
        for (int i = 0; i < N; ++i)
            work(i);
    }
#pragma omp parallel for schedule(guided)
    for (int i = 0; i < N; ++i)
        check(in);
#pragma omp parallel for schedule(runtime)
    for (int i = 0; i < N; ++i)
        work(i);
    printf("%d %d\n", out[N - 1], mismatches);
    return 0;
}
