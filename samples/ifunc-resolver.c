// Instrumented ifunc resolvers: gcc's and clang's `target_clones` and `__attribute__((ifunc))`
// emit a resolver that the dynamic linker calls while it is still relocating the program,
// before the C library (and the firstrace runtime) is initialised. Built with
// -fsanitize=thread, the resolver calls the runtime's entry points; the runtime lets those
// calls pass untraced (before, it started itself from there and the program crashed in the C
// library before main: LLVM issue 163369, compiler-rt's `target_clones_segfault.c`). The
// program itself is race-free: the worker's update is ordered before main's by the join.
#include <pthread.h>
#include <stdio.h>

static int shared;
static int resolved_calls;

static int add_one(int x) {
    return x + 1;
}

// Runs inside the dynamic linker: its write is before every thread.
static int (*resolve_add(void))(int) {
    resolved_calls = resolved_calls + 1;
    return add_one;
}
int add(int x) __attribute__((ifunc("resolve_add")));

#if defined(__x86_64__)
__attribute__((target_clones("avx2", "default")))
#endif
static int
twice(int v) {
    return 2 * v;
}

static void* worker(void* arg) {
    shared = add(twice(1));
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
    shared = add(shared) + resolved_calls;
    printf("%d\n", shared);
    return 0;
}
