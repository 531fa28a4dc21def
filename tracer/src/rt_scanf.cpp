// The scanf family (C11 7.21.6.2, POSIX fscanf): each conversion that assigns stores into the
// object its pointer argument points to, a write by the call at the caller's program counter
// (as ThreadSanitizer's scanf_common records them). The format is walked as the C library
// reads it:
//
//   %[*][width][m][length]conv   `*` assigns nothing and takes no argument; `m` (POSIX 2008)
//                                stores a pointer to a buffer the call allocates (a write of
//                                the pointer; the buffer is a new allocation).
//   d i o u x X n                an integer of the length modifier's size (hh h - l ll q j z t)
//   a e f g (A E F G)            float, double with l, long double with L
//   c                            width characters (1 without a width; wide with l)
//   s [                          the characters stored and the terminator (wide with l)
//   p                            a void*
//
// Only the first r assigning conversions are written, r being the call's result (the count of
// items assigned; EOF or 0: none); a %n before the last of them is written too (it does not
// count). sscanf/vsscanf read their input string (up to its terminator); fscanf/scanf and their
// v forms are locked uses of their stream (rt_stdio_stream.cpp). glibc 2.36 names the C99
// forms __isoc99_*: programs compiled in a standard C or C++ mode call those. The wide forms
// (swscanf, fwscanf, wscanf, their v and __isoc99_ forms) walk a wide format the same way and
// swscanf reads its wide input. Positional conversions (`%2$d`, POSIX: then all of them are)
// take the nth pointer argument; up to 64 positions are kept (beyond: nothing is recorded).
#include <stdarg.h>
#include <stdio.h>
#include <wchar.h>

#include "rt_library_call.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_stdio.hpp"

extern "C" {
int __isoc99_sscanf(const char* s, const char* format, ...);
int __isoc99_vsscanf(const char* s, const char* format, va_list ap);
int __isoc99_fscanf(FILE* f, const char* format, ...);
int __isoc99_vfscanf(FILE* f, const char* format, va_list ap);
int __isoc99_scanf(const char* format, ...);
int __isoc99_vscanf(const char* format, va_list ap);
int __isoc99_swscanf(const wchar_t* s, const wchar_t* format, ...);
int __isoc99_vswscanf(const wchar_t* s, const wchar_t* format, va_list ap);
int __isoc99_fwscanf(FILE* f, const wchar_t* format, ...);
int __isoc99_vfwscanf(FILE* f, const wchar_t* format, va_list ap);
int __isoc99_wscanf(const wchar_t* format, ...);
int __isoc99_vwscanf(const wchar_t* format, va_list ap);
}

using namespace frt;

namespace {

// The size of an integer conversion's object under a length modifier.
u64 integer_size(const char* length) {
    if (length[0] == 'h') return length[1] == 'h' ? sizeof(char) : sizeof(short);
    if (length[0] == 'l' || length[0] == 'q' || length[0] == 'j' || length[0] == 'z' ||
        length[0] == 't' || length[0] == 'L')
        return sizeof(long long);
    return sizeof(int);
}

// Up to kPositions pointer arguments of a call with positional conversions, in order: every
// argument of a scanf call is a pointer, so the list is read without knowing the conversions.
constexpr u32 kPositions = 64;
template <class Char> u32 highest_position(const Char* format) {
    u32 highest = 0;
    for (const Char* p = format; *p != 0; ++p) {
        if (*p != '%') continue;
        ++p;
        if (const u32 n = argument_position(p); n > highest) highest = n;
        if (*p == 0) break;
    }
    return highest;
}

// The writes of a call that assigned `assigned` items, its arguments in ap (a copy). The format
// is narrow (scanf) or wide (wscanf): the conversions are the same, `%s`/`%c`/`%[` store
// `char`s unless `l` makes them wide in both.
template <class Char> void scanned(u64 pc, const Char* format, va_list ap, int assigned) {
    if (assigned <= 0 || format == nullptr) return;
    InterceptorScope scope(program_call(pc));
    if (!scope) return;
    ThreadState* t = scope.thread();
    void* positional[kPositions];
    const u32 positions = highest_position(format);
    if (positions > kPositions) return; // beyond what is kept: nothing is recorded
    for (u32 i = 0; i < positions; ++i)
        positional[i] = va_arg(ap, void*);
    int stored = 0;
    for (const Char* p = format; *p != 0 && stored < assigned; ++p) {
        if (*p != '%') continue;
        ++p;
        if (*p == '%') continue;
        const u32 position = argument_position(p);
        const bool suppressed = *p == '*';
        if (suppressed) ++p;
        u64 width = 0;
        while (is_digit(*p))
            width = width * 10 + static_cast<u64>(*p++ - '0');
        const bool allocating = *p == 'm';
        if (allocating) ++p;
        char length[3] = {0, 0, 0};
        if (*p == 'h' || *p == 'l') {
            length[0] = static_cast<char>(*p++);
            if (*p == length[0]) length[1] = static_cast<char>(*p++);
        } else if (*p == 'L' || *p == 'q' || *p == 'j' || *p == 'z' || *p == 't') {
            length[0] = static_cast<char>(*p++);
        }
        const Char conv = *p;
        if (conv == 0) break;
        if (conv == '[') { // the scanset: a ']' right after '[' or '[^' belongs to it
            ++p;
            if (*p == '^') ++p;
            if (*p == ']') ++p;
            while (*p != 0 && *p != ']')
                ++p;
            if (*p == 0) break;
        }
        if (suppressed) continue;
        void* out = positions == 0                           ? va_arg(ap, void*)
                    : position >= 1 && position <= positions ? positional[position - 1]
                                                             : nullptr;
        u64 size = 0;
        const bool wide = length[0] == 'l';
        switch (conv) {
        case 'd':
        case 'i':
        case 'o':
        case 'u':
        case 'x':
        case 'X':
        case 'n':
            size = integer_size(length);
            break;
        case 'a':
        case 'e':
        case 'f':
        case 'g':
        case 'A':
        case 'E':
        case 'F':
        case 'G':
            size = length[0] == 'L' ? sizeof(long double) : wide ? sizeof(double) : sizeof(float);
            break;
        case 'p':
            size = sizeof(void*);
            break;
        case 'c':
            size = (width == 0 ? 1 : width) * (wide ? sizeof(wchar_t) : 1);
            break;
        case 's':
        case '[':
            if (!allocating && out != nullptr)
                size = wide
                           ? (string_length(static_cast<const wchar_t*>(out)) + 1) * sizeof(wchar_t)
                           : string_length(static_cast<const char*>(out)) + 1;
            break;
        default: // not a conversion glibc knows: it stops there
            return;
        }
        if (allocating && (conv == 's' || conv == '[' || conv == 'c')) size = sizeof(char*);
        if (out != nullptr) library_access(t, pc, out, size, true);
        if (conv != 'n') ++stored;
    }
}

template <class Char> void input_read(u64 pc, const Char* s) {
    if (s == nullptr) return;
    if (InterceptorScope scope(program_call(pc)); scope)
        library_access(scope.thread(), pc, s, (string_length(s) + 1) * sizeof(Char), false);
}

FRT_DECLARE_REAL(vsscanf);
FRT_DECLARE_REAL(vfscanf);
FRT_DECLARE_REAL(vscanf);
FRT_DECLARE_REAL(__isoc99_vsscanf);
FRT_DECLARE_REAL(__isoc99_vfscanf);
FRT_DECLARE_REAL(__isoc99_vscanf);
FRT_DECLARE_REAL(vswscanf);
FRT_DECLARE_REAL(vfwscanf);
FRT_DECLARE_REAL(vwscanf);
FRT_DECLARE_REAL(__isoc99_vswscanf);
FRT_DECLARE_REAL(__isoc99_vfwscanf);
FRT_DECLARE_REAL(__isoc99_vwscanf);

// One call: input read or stream used, the real v-form on ap, the writes from a copy of ap.
template <class Real, class Source, class Char>
int scan(u64 pc, Real real, Source source, const Char* format, va_list ap) {
    va_list copy;
    va_copy(copy, ap);
    const int r = real(source, format, ap);
    scanned(pc, format, copy, r);
    va_end(copy);
    return r;
}
template <class Real, class Char>
int scan_stdin(u64 pc, Real real, const Char* format, va_list ap) {
    stream_used(pc, stdin);
    StreamInput input(pc, stdin);
    va_list copy;
    va_copy(copy, ap);
    const int r = real(format, ap);
    scanned(pc, format, copy, r);
    va_end(copy);
    return r;
}

} // namespace

// (<stdio.h> redirects the plain names to the __isoc99_ forms in standard modes: the GNU
// forms are defined under their C names)
FRT_EXPORT int c_vsscanf(const char* s, const char* format, va_list ap) __asm__("vsscanf");
FRT_EXPORT int c_sscanf(const char* s, const char* format, ...) __asm__("sscanf");
FRT_EXPORT int c_vfscanf(FILE* f, const char* format, va_list ap) __asm__("vfscanf");
FRT_EXPORT int c_fscanf(FILE* f, const char* format, ...) __asm__("fscanf");
FRT_EXPORT int c_vscanf(const char* format, va_list ap) __asm__("vscanf");
FRT_EXPORT int c_scanf(const char* format, ...) __asm__("scanf");
FRT_EXPORT int c_vswscanf(const wchar_t* s, const wchar_t* format, va_list ap) __asm__("vswscanf");
FRT_EXPORT int c_swscanf(const wchar_t* s, const wchar_t* format, ...) __asm__("swscanf");
FRT_EXPORT int c_vfwscanf(FILE* f, const wchar_t* format, va_list ap) __asm__("vfwscanf");
FRT_EXPORT int c_fwscanf(FILE* f, const wchar_t* format, ...) __asm__("fwscanf");
FRT_EXPORT int c_vwscanf(const wchar_t* format, va_list ap) __asm__("vwscanf");
FRT_EXPORT int c_wscanf(const wchar_t* format, ...) __asm__("wscanf");

// --- from a string ---------------------------------------------------------------------------

FRT_EXPORT int c_vsscanf(const char* s, const char* format, va_list ap) {
    input_read(FRT_CALLER(), s);
    return scan(FRT_CALLER(), REAL(vsscanf), s, format, ap);
}
FRT_EXPORT int __isoc99_vsscanf(const char* s, const char* format, va_list ap) {
    input_read(FRT_CALLER(), s);
    return scan(FRT_CALLER(), REAL(__isoc99_vsscanf), s, format, ap);
}
FRT_EXPORT int c_sscanf(const char* s, const char* format, ...) {
    input_read(FRT_CALLER(), s);
    va_list ap;
    va_start(ap, format);
    const int r = scan(FRT_CALLER(), REAL(vsscanf), s, format, ap);
    va_end(ap);
    return r;
}
FRT_EXPORT int __isoc99_sscanf(const char* s, const char* format, ...) {
    input_read(FRT_CALLER(), s);
    va_list ap;
    va_start(ap, format);
    const int r = scan(FRT_CALLER(), REAL(__isoc99_vsscanf), s, format, ap);
    va_end(ap);
    return r;
}

// --- from a stream ---------------------------------------------------------------------------

FRT_EXPORT int c_vfscanf(FILE* f, const char* format, va_list ap) {
    stream_used(FRT_CALLER(), f);
    StreamInput input(FRT_CALLER(), f);
    return scan(FRT_CALLER(), REAL(vfscanf), f, format, ap);
}
FRT_EXPORT int __isoc99_vfscanf(FILE* f, const char* format, va_list ap) {
    stream_used(FRT_CALLER(), f);
    StreamInput input(FRT_CALLER(), f);
    return scan(FRT_CALLER(), REAL(__isoc99_vfscanf), f, format, ap);
}
FRT_EXPORT int c_fscanf(FILE* f, const char* format, ...) {
    stream_used(FRT_CALLER(), f);
    StreamInput input(FRT_CALLER(), f);
    va_list ap;
    va_start(ap, format);
    const int r = scan(FRT_CALLER(), REAL(vfscanf), f, format, ap);
    va_end(ap);
    return r;
}
FRT_EXPORT int __isoc99_fscanf(FILE* f, const char* format, ...) {
    stream_used(FRT_CALLER(), f);
    StreamInput input(FRT_CALLER(), f);
    va_list ap;
    va_start(ap, format);
    const int r = scan(FRT_CALLER(), REAL(__isoc99_vfscanf), f, format, ap);
    va_end(ap);
    return r;
}
FRT_EXPORT int c_vscanf(const char* format, va_list ap) {
    return scan_stdin(FRT_CALLER(), REAL(vscanf), format, ap);
}
FRT_EXPORT int __isoc99_vscanf(const char* format, va_list ap) {
    return scan_stdin(FRT_CALLER(), REAL(__isoc99_vscanf), format, ap);
}
FRT_EXPORT int c_scanf(const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    const int r = scan_stdin(FRT_CALLER(), REAL(vscanf), format, ap);
    va_end(ap);
    return r;
}
FRT_EXPORT int __isoc99_scanf(const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    const int r = scan_stdin(FRT_CALLER(), REAL(__isoc99_vscanf), format, ap);
    va_end(ap);
    return r;
}

// --- wide characters (C11 7.29.2.2: the same conversions, a wide format and input) ----------

FRT_EXPORT int c_vswscanf(const wchar_t* s, const wchar_t* format, va_list ap) {
    input_read(FRT_CALLER(), s);
    return scan(FRT_CALLER(), REAL(vswscanf), s, format, ap);
}
FRT_EXPORT int __isoc99_vswscanf(const wchar_t* s, const wchar_t* format, va_list ap) {
    input_read(FRT_CALLER(), s);
    return scan(FRT_CALLER(), REAL(__isoc99_vswscanf), s, format, ap);
}
FRT_EXPORT int c_swscanf(const wchar_t* s, const wchar_t* format, ...) {
    input_read(FRT_CALLER(), s);
    va_list ap;
    va_start(ap, format);
    const int r = scan(FRT_CALLER(), REAL(vswscanf), s, format, ap);
    va_end(ap);
    return r;
}
FRT_EXPORT int __isoc99_swscanf(const wchar_t* s, const wchar_t* format, ...) {
    input_read(FRT_CALLER(), s);
    va_list ap;
    va_start(ap, format);
    const int r = scan(FRT_CALLER(), REAL(__isoc99_vswscanf), s, format, ap);
    va_end(ap);
    return r;
}
FRT_EXPORT int c_vfwscanf(FILE* f, const wchar_t* format, va_list ap) {
    stream_used(FRT_CALLER(), f);
    StreamInput input(FRT_CALLER(), f);
    return scan(FRT_CALLER(), REAL(vfwscanf), f, format, ap);
}
FRT_EXPORT int __isoc99_vfwscanf(FILE* f, const wchar_t* format, va_list ap) {
    stream_used(FRT_CALLER(), f);
    StreamInput input(FRT_CALLER(), f);
    return scan(FRT_CALLER(), REAL(__isoc99_vfwscanf), f, format, ap);
}
FRT_EXPORT int c_fwscanf(FILE* f, const wchar_t* format, ...) {
    stream_used(FRT_CALLER(), f);
    StreamInput input(FRT_CALLER(), f);
    va_list ap;
    va_start(ap, format);
    const int r = scan(FRT_CALLER(), REAL(vfwscanf), f, format, ap);
    va_end(ap);
    return r;
}
FRT_EXPORT int __isoc99_fwscanf(FILE* f, const wchar_t* format, ...) {
    stream_used(FRT_CALLER(), f);
    StreamInput input(FRT_CALLER(), f);
    va_list ap;
    va_start(ap, format);
    const int r = scan(FRT_CALLER(), REAL(__isoc99_vfwscanf), f, format, ap);
    va_end(ap);
    return r;
}
FRT_EXPORT int c_vwscanf(const wchar_t* format, va_list ap) {
    return scan_stdin(FRT_CALLER(), REAL(vwscanf), format, ap);
}
FRT_EXPORT int __isoc99_vwscanf(const wchar_t* format, va_list ap) {
    return scan_stdin(FRT_CALLER(), REAL(__isoc99_vwscanf), format, ap);
}
FRT_EXPORT int c_wscanf(const wchar_t* format, ...) {
    va_list ap;
    va_start(ap, format);
    const int r = scan_stdin(FRT_CALLER(), REAL(vwscanf), format, ap);
    va_end(ap);
    return r;
}
FRT_EXPORT int __isoc99_wscanf(const wchar_t* format, ...) {
    va_list ap;
    va_start(ap, format);
    const int r = scan_stdin(FRT_CALLER(), REAL(__isoc99_vwscanf), format, ap);
    va_end(ap);
    return r;
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(vsscanf)
FRT_INTERCEPTOR_ALIAS(__isoc99_vsscanf)
FRT_INTERCEPTOR_ALIAS(sscanf)
FRT_INTERCEPTOR_ALIAS(__isoc99_sscanf)
FRT_INTERCEPTOR_ALIAS(vfscanf)
FRT_INTERCEPTOR_ALIAS(__isoc99_vfscanf)
FRT_INTERCEPTOR_ALIAS(fscanf)
FRT_INTERCEPTOR_ALIAS(__isoc99_fscanf)
FRT_INTERCEPTOR_ALIAS(vscanf)
FRT_INTERCEPTOR_ALIAS(__isoc99_vscanf)
FRT_INTERCEPTOR_ALIAS(scanf)
FRT_INTERCEPTOR_ALIAS(__isoc99_scanf)
FRT_INTERCEPTOR_ALIAS(vswscanf)
FRT_INTERCEPTOR_ALIAS(__isoc99_vswscanf)
FRT_INTERCEPTOR_ALIAS(swscanf)
FRT_INTERCEPTOR_ALIAS(__isoc99_swscanf)
FRT_INTERCEPTOR_ALIAS(vfwscanf)
FRT_INTERCEPTOR_ALIAS(__isoc99_vfwscanf)
FRT_INTERCEPTOR_ALIAS(fwscanf)
FRT_INTERCEPTOR_ALIAS(__isoc99_fwscanf)
FRT_INTERCEPTOR_ALIAS(vwscanf)
FRT_INTERCEPTOR_ALIAS(__isoc99_vwscanf)
FRT_INTERCEPTOR_ALIAS(wscanf)
FRT_INTERCEPTOR_ALIAS(__isoc99_wscanf)
