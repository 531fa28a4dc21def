// What the C library interceptors share to record the accesses a library call of the program
// makes to the program's memory: whether the call is the program's, string extents, and the
// accesses of one call under one guard scope.
#pragma once

#include "rt_record.hpp"

namespace frt {

// The calling thread, entered, if a library call of the program made at pc is to be recorded:
// not the runtime's own calls, nor the OpenMP runtime's on its own data (rt_internal.hpp), nor
// calls made while the thread is being set up (these functions run there too).
FRT_INLINE ThreadState* program_call(u64 pc) {
    return from_runtime(pc) || in_openmp_runtime(pc) ? nullptr : enter_attached();
}

// The characters of s before its terminator, at most max (plain loops: some callers run before
// the real string functions are resolved).
template <class Char> u64 string_length(const Char* s, u64 max = ~0ull) {
    u64 n = 0;
    while (n < max && s[n] != 0)
        ++n;
    return n;
}
// The characters a scan of s up to max examines: the terminator included when it comes first.
template <class Char> u64 string_extent(const Char* s, u64 max = ~0ull) {
    const u64 n = string_length(s, max);
    return n < max ? n + 1 : n;
}

// Formats (printf and scanf families, narrow or wide).
template <class Char> bool is_digit(Char c) {
    return c >= '0' && c <= '9';
}
// The argument a conversion names with `n$` (POSIX positional arguments, 1-based; printf's `*m$`
// too), 0 for none; p is moved past the `n$`.
template <class Char> u32 argument_position(const Char*& p) {
    const Char* q = p;
    u32 n = 0;
    while (is_digit(*q) && n < 100000)
        n = n * 10 + static_cast<u32>(*q++ - '0');
    if (*q != '$' || q == p) return 0;
    p = q + 1;
    return n;
}

// The accesses of one library call made at pc, under one scope: `if (LibraryCall c(pc); c)`.
class LibraryCall {
  public:
    explicit LibraryCall(u64 pc) : pc_(pc), scope_(program_call(pc)) {}
    explicit operator bool() const { return static_cast<bool>(scope_); }

    // size bytes at p (nothing for a null p or no bytes).
    void bytes(const void* p, u64 size, bool write) {
        if (p != nullptr && size != 0) library_access(scope_.thread(), pc_, p, size, write);
    }
    // The string at s with its terminator.
    template <class Char> void text(const Char* s, bool write) {
        if (s != nullptr) bytes(s, string_extent(s) * sizeof(Char), write);
    }

  private:
    u64 pc_;
    InterceptorScope scope_;
};

// A collation transform made at pc (strxfrm, wcsxfrm and their _l forms) of s into d, room for
// n characters, by `real` (returning the transform's length): s read whole, what it stored
// written (with the terminator when it fit).
template <class Char, class Real>
size_t collation_transformed(u64 pc, Char* d, const Char* s, size_t n, Real real) {
    if (LibraryCall c(pc); c) c.text(s, false);
    const size_t r = real();
    if (n != 0)
        if (LibraryCall c(pc); c) c.bytes(d, (r < n ? r + 1 : n) * sizeof(Char), true);
    return r;
}

} // namespace frt
