/* C code (built as C: no -fexceptions, no cleanups) that calls back into the program: the
 * callback may throw a C++ exception, which the unwinder carries through these frames without
 * running anything in them. Part of samples/exception-frames{,-racy}.cpp (BUILD-FLAGS). */
__attribute__((noinline)) static int visit(const int* items, int i, int (*callback)(int)) {
    int r = callback(items[i]);
    __asm__ volatile("" ::: "memory"); /* not a tail call: a frame of its own */
    return r;
}

__attribute__((noinline)) int c_each(const int* items, int n, int (*callback)(int)) {
    int sum = 0;
    for (int i = 0; i < n; ++i)
        sum += visit(items, i, callback);
    return sum;
}
