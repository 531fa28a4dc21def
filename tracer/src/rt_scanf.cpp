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
// forms __isoc99_*: programs compiled in a standard C or C++ mode call those.
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

// The writes of a call that assigned `assigned` items, its arguments in ap (a copy).
void scanned(u64 pc, const char* format, va_list ap, int assigned) {
    if (assigned <= 0 || format == nullptr) return;
    InterceptorScope scope(program_call(pc));
    if (!scope) return;
    ThreadState* t = scope.thread();
    int stored = 0;
    for (const char* p = format; *p != 0 && stored < assigned; ++p) {
        if (*p != '%') continue;
        ++p;
        if (*p == '%') continue;
        const bool suppressed = *p == '*';
        if (suppressed) ++p;
        u64 width = 0;
        while (*p >= '0' && *p <= '9')
            width = width * 10 + static_cast<u64>(*p++ - '0');
        const bool allocating = *p == 'm';
        if (allocating) ++p;
        char length[3] = {0, 0, 0};
        if (*p == 'h' || *p == 'l') {
            length[0] = *p++;
            if (*p == length[0]) length[1] = *p++;
        } else if (*p == 'L' || *p == 'q' || *p == 'j' || *p == 'z' || *p == 't') {
            length[0] = *p++;
        }
        const char conv = *p;
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
        void* out = va_arg(ap, void*);
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

void input_read(u64 pc, const char* s) {
    if (s == nullptr) return;
    if (InterceptorScope scope(program_call(pc)); scope)
        library_access(scope.thread(), pc, s, string_length(s) + 1, false);
}

FRT_DECLARE_REAL(vsscanf);
FRT_DECLARE_REAL(vfscanf);
FRT_DECLARE_REAL(vscanf);
FRT_DECLARE_REAL(__isoc99_vsscanf);
FRT_DECLARE_REAL(__isoc99_vfscanf);
FRT_DECLARE_REAL(__isoc99_vscanf);

// One call: input read or stream used, the real v-form on ap, the writes from a copy of ap.
template <class Real, class Source>
int scan(u64 pc, Real real, Source source, const char* format, va_list ap) {
    va_list copy;
    va_copy(copy, ap);
    const int r = real(source, format, ap);
    scanned(pc, format, copy, r);
    va_end(copy);
    return r;
}
template <class Real> int scan_stdin(u64 pc, Real real, const char* format, va_list ap) {
    stream_used(pc, stdin);
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
    return scan(FRT_CALLER(), REAL(vfscanf), f, format, ap);
}
FRT_EXPORT int __isoc99_vfscanf(FILE* f, const char* format, va_list ap) {
    stream_used(FRT_CALLER(), f);
    return scan(FRT_CALLER(), REAL(__isoc99_vfscanf), f, format, ap);
}
FRT_EXPORT int c_fscanf(FILE* f, const char* format, ...) {
    stream_used(FRT_CALLER(), f);
    va_list ap;
    va_start(ap, format);
    const int r = scan(FRT_CALLER(), REAL(vfscanf), f, format, ap);
    va_end(ap);
    return r;
}
FRT_EXPORT int __isoc99_fscanf(FILE* f, const char* format, ...) {
    stream_used(FRT_CALLER(), f);
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
