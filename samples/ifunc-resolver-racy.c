// Instrumented ifunc resolvers (see ifunc-resolver.c): the resolvers run inside the dynamic
// linker, before the runtime starts, and pass untraced; the program's own race (main updates
// `shared` before joining the worker) is found as usual.
#include <pthread.h>
#include <stdio.h>

static int shared;

static int add_one(int x) {
    return x + 1;
}

static int (*resolve_add(void))(int) {
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
    shared = add(twice(1)); // RACE
    return arg;
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    shared = add(2); // RACE
    pthread_join(t, NULL);
    printf("%d\n", shared);
    return 0;
}
