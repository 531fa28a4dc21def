// The cost of the shadow stack: two threads each compute fib(N) (default 38) by plain
// recursion, nothing but function entries and exits (2·1.3·10^8 calls at 38), and print the
// result. Each call is one __tsan_func_entry and one __tsan_func_exit under both firstrace and
// ThreadSanitizer; `bench/tracing/run.sh` (ONLY=calls_only) times it plain, recorded and under
// both compilers' TSan in one run. What a setjmp/longjmp-aware shadow stack must not make
// dearer (rt_frames_left.cpp).
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int n = 38;

__attribute__((noinline)) static long fib(int k) {
    return k < 2 ? k : fib(k - 1) + fib(k - 2);
}

static void* work(void* out) {
    *(long*)out = fib(n);
    return NULL;
}

int main(int argc, char** argv) {
    if (argc > 1) n = atoi(argv[1]);
    pthread_t t[2];
    long r[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, work, &r[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    printf("fib(%d) = %ld %ld\n", n, r[0], r[1]);
    return 0;
}
