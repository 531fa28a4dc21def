// The printf family: what each call does to the program's memory and to its stream.
//
//   arguments      the format, the %s strings read, the %n integers written
//                  (rt_printf_args.cpp).
//   printf & co.   printf/fprintf/vprintf/vfprintf lock their stream (an atomic read-write of
//                  its lock field, rt_stdio_stream.cpp).
//   sprintf & co.  sprintf/snprintf/vsprintf/vsnprintf write the characters they produce and
//                  the terminator (at most n).
//   asprintf       asprintf/vasprintf write *strp and the string they allocate (the allocation
//                  is the program's call, tls_library_call_pc).
//   dprintf        dprintf/vdprintf write to a descriptor through a stream of their own, whose
//                  write(2) is inside the C library: a send on the descriptor (rt_fd.cpp), as
//                  write is.
//   _chk forms     _FORTIFY_SOURCE's __printf_chk, __fprintf_chk, __sprintf_chk,
//                  __snprintf_chk, __dprintf_chk, __asprintf_chk and their v forms (what gcc
//                  and clang call with -D_FORTIFY_SOURCE=2 at -O1 and up): the same.
// The wide-character forms are in rt_stdio_wide.cpp. The calls are recorded only for threads
// the runtime already knows, never from inside the runtime; the real function runs outside it
// (it may allocate, and a signal handler may run in it).
#include <stdarg.h>
#include <stdio.h>

#include "rt_fd.hpp"
#include "rt_printf_args.hpp"
#include "rt_real.hpp"
#include "rt_stdio.hpp"

extern "C" {
int __printf_chk(int flag, const char* format, ...);
int __fprintf_chk(FILE* f, int flag, const char* format, ...);
int __vprintf_chk(int flag, const char* format, va_list ap);
int __vfprintf_chk(FILE* f, int flag, const char* format, va_list ap);
int __sprintf_chk(char* s, int flag, size_t size, const char* format, ...);
int __snprintf_chk(char* s, size_t n, int flag, size_t size, const char* format, ...);
int __vsprintf_chk(char* s, int flag, size_t size, const char* format, va_list ap);
int __vsnprintf_chk(char* s, size_t n, int flag, size_t size, const char* format, va_list ap);
int __dprintf_chk(int fd, int flag, const char* format, ...);
int __vdprintf_chk(int fd, int flag, const char* format, va_list ap);
int __asprintf_chk(char** out, int flag, const char* format, ...);
int __vasprintf_chk(char** out, int flag, const char* format, va_list ap);
}

using namespace frt;

namespace {

FRT_DECLARE_REAL(vfprintf);
FRT_DECLARE_REAL(vsnprintf);
FRT_DECLARE_REAL(vsprintf);
FRT_DECLARE_REAL(vdprintf);
FRT_DECLARE_REAL(vasprintf);
FRT_DECLARE_REAL(__vfprintf_chk);
FRT_DECLARE_REAL(__vsprintf_chk);
FRT_DECLARE_REAL(__vsnprintf_chk);
FRT_DECLARE_REAL(__vdprintf_chk);
FRT_DECLARE_REAL(__vasprintf_chk);

constexpr u64 kUnbounded = ~0ull;

// The arguments' accesses, from a copy of ap (the real call consumes ap itself).
void arguments_used(u64 pc, const char* format, va_list ap) {
    va_list copy;
    va_copy(copy, ap);
    printf_arguments(pc, format, copy);
    va_end(copy);
}

// A call that prints to f: the stream's lock, the arguments, then the real call `print`.
template <class Print>
int printed_to(u64 pc, FILE* f, const char* format, va_list ap, Print print) {
    stream_used(pc, f);
    arguments_used(pc, format, ap);
    StreamOutput output(pc, f, nullptr, StreamOutput::kUnknown);
    const int r = print();
    output.finished(r);
    return r;
}

// A call that formats into buf (at most n bytes): the arguments, the real call, then the
// characters produced and the terminator (r: the length the whole output has).
template <class Format>
int formatted_into(u64 pc, char* buf, u64 n, const char* format, va_list ap, Format format_it) {
    arguments_used(pc, format, ap);
    const int r = format_it();
    if (r >= 0 && n != 0) {
        const u64 written = static_cast<u64>(r) + 1 < n ? static_cast<u64>(r) + 1 : n;
        if (InterceptorScope scope(program_call(pc)); scope)
            library_access(scope.thread(), pc, buf, written, true);
    }
    return r;
}

// A call that prints to a descriptor: a send on it (rt_fd.hpp), the arguments, the real call.
template <class Print>
int printed_to_fd(u64 pc, int fd, const char* format, va_list ap, Print print) {
    arguments_used(pc, format, ap);
    if (!from_runtime(pc)) fd::before_send(fd, pc, nullptr, 0);
    return print();
}

// A call that allocates its output: the arguments, the real call (its allocation is the
// program's), then *out and the string.
template <class Format>
int allocated(u64 pc, char** out, const char* format, va_list ap, Format format_it) {
    arguments_used(pc, format, ap);
    int r;
    {
        ProgramAllocations program(pc);
        r = format_it();
    }
    if (InterceptorScope scope(program_call(pc)); scope) {
        library_access(scope.thread(), pc, out, sizeof *out, true);
        if (r >= 0) library_access(scope.thread(), pc, *out, static_cast<u64>(r) + 1, true);
    }
    return r;
}

} // namespace

// --- to a stream -------------------------------------------------------------------------------

FRT_EXPORT int vfprintf(FILE* f, const char* format, va_list ap) {
    return printed_to(FRT_CALLER(), f, format, ap, [&] { return REAL(vfprintf)(f, format, ap); });
}
FRT_EXPORT int vprintf(const char* format, va_list ap) {
    return printed_to(FRT_CALLER(), stdout, format, ap,
                      [&] { return REAL(vfprintf)(stdout, format, ap); });
}
FRT_EXPORT int fprintf(FILE* f, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    const int r =
        printed_to(FRT_CALLER(), f, format, ap, [&] { return REAL(vfprintf)(f, format, ap); });
    va_end(ap);
    return r;
}
FRT_EXPORT int printf(const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    const int r = printed_to(FRT_CALLER(), stdout, format, ap,
                             [&] { return REAL(vfprintf)(stdout, format, ap); });
    va_end(ap);
    return r;
}
FRT_EXPORT int __vfprintf_chk(FILE* f, int flag, const char* format, va_list ap) {
    return printed_to(FRT_CALLER(), f, format, ap,
                      [&] { return REAL(__vfprintf_chk)(f, flag, format, ap); });
}
FRT_EXPORT int __vprintf_chk(int flag, const char* format, va_list ap) {
    return printed_to(FRT_CALLER(), stdout, format, ap,
                      [&] { return REAL(__vfprintf_chk)(stdout, flag, format, ap); });
}
FRT_EXPORT int __fprintf_chk(FILE* f, int flag, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    const int r = printed_to(FRT_CALLER(), f, format, ap,
                             [&] { return REAL(__vfprintf_chk)(f, flag, format, ap); });
    va_end(ap);
    return r;
}
FRT_EXPORT int __printf_chk(int flag, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    const int r = printed_to(FRT_CALLER(), stdout, format, ap,
                             [&] { return REAL(__vfprintf_chk)(stdout, flag, format, ap); });
    va_end(ap);
    return r;
}

// --- into a buffer -----------------------------------------------------------------------------

FRT_EXPORT int vsnprintf(char* buf, size_t n, const char* format, va_list ap) {
    return formatted_into(FRT_CALLER(), buf, n, format, ap,
                          [&] { return REAL(vsnprintf)(buf, n, format, ap); });
}
FRT_EXPORT int snprintf(char* buf, size_t n, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    const int r = formatted_into(FRT_CALLER(), buf, n, format, ap,
                                 [&] { return REAL(vsnprintf)(buf, n, format, ap); });
    va_end(ap);
    return r;
}
FRT_EXPORT int vsprintf(char* buf, const char* format, va_list ap) {
    return formatted_into(FRT_CALLER(), buf, kUnbounded, format, ap,
                          [&] { return REAL(vsprintf)(buf, format, ap); });
}
FRT_EXPORT int sprintf(char* buf, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    const int r = formatted_into(FRT_CALLER(), buf, kUnbounded, format, ap,
                                 [&] { return REAL(vsprintf)(buf, format, ap); });
    va_end(ap);
    return r;
}
FRT_EXPORT int __vsnprintf_chk(char* buf, size_t n, int flag, size_t size, const char* format,
                               va_list ap) {
    return formatted_into(FRT_CALLER(), buf, n, format, ap,
                          [&] { return REAL(__vsnprintf_chk)(buf, n, flag, size, format, ap); });
}
FRT_EXPORT int __snprintf_chk(char* buf, size_t n, int flag, size_t size, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    const int r = formatted_into(FRT_CALLER(), buf, n, format, ap, [&] {
        return REAL(__vsnprintf_chk)(buf, n, flag, size, format, ap);
    });
    va_end(ap);
    return r;
}
FRT_EXPORT int __vsprintf_chk(char* buf, int flag, size_t size, const char* format, va_list ap) {
    return formatted_into(FRT_CALLER(), buf, kUnbounded, format, ap,
                          [&] { return REAL(__vsprintf_chk)(buf, flag, size, format, ap); });
}
FRT_EXPORT int __sprintf_chk(char* buf, int flag, size_t size, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    const int r = formatted_into(FRT_CALLER(), buf, kUnbounded, format, ap,
                                 [&] { return REAL(__vsprintf_chk)(buf, flag, size, format, ap); });
    va_end(ap);
    return r;
}

// --- to a descriptor, into an allocated string -------------------------------------------------

FRT_EXPORT int vdprintf(int fd, const char* format, va_list ap) {
    return printed_to_fd(FRT_CALLER(), fd, format, ap,
                         [&] { return REAL(vdprintf)(fd, format, ap); });
}
FRT_EXPORT int dprintf(int fd, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    const int r =
        printed_to_fd(FRT_CALLER(), fd, format, ap, [&] { return REAL(vdprintf)(fd, format, ap); });
    va_end(ap);
    return r;
}
FRT_EXPORT int __vdprintf_chk(int fd, int flag, const char* format, va_list ap) {
    return printed_to_fd(FRT_CALLER(), fd, format, ap,
                         [&] { return REAL(__vdprintf_chk)(fd, flag, format, ap); });
}
FRT_EXPORT int __dprintf_chk(int fd, int flag, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    const int r = printed_to_fd(FRT_CALLER(), fd, format, ap,
                                [&] { return REAL(__vdprintf_chk)(fd, flag, format, ap); });
    va_end(ap);
    return r;
}
FRT_EXPORT int vasprintf(char** out, const char* format, va_list ap) {
    return allocated(FRT_CALLER(), out, format, ap,
                     [&] { return REAL(vasprintf)(out, format, ap); });
}
FRT_EXPORT int asprintf(char** out, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    const int r =
        allocated(FRT_CALLER(), out, format, ap, [&] { return REAL(vasprintf)(out, format, ap); });
    va_end(ap);
    return r;
}
FRT_EXPORT int __vasprintf_chk(char** out, int flag, const char* format, va_list ap) {
    return allocated(FRT_CALLER(), out, format, ap,
                     [&] { return REAL(__vasprintf_chk)(out, flag, format, ap); });
}
FRT_EXPORT int __asprintf_chk(char** out, int flag, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    const int r = allocated(FRT_CALLER(), out, format, ap,
                            [&] { return REAL(__vasprintf_chk)(out, flag, format, ap); });
    va_end(ap);
    return r;
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(vfprintf)
FRT_INTERCEPTOR_ALIAS(vprintf)
FRT_INTERCEPTOR_ALIAS(fprintf)
FRT_INTERCEPTOR_ALIAS(printf)
FRT_INTERCEPTOR_ALIAS(__vfprintf_chk)
FRT_INTERCEPTOR_ALIAS(__vprintf_chk)
FRT_INTERCEPTOR_ALIAS(__fprintf_chk)
FRT_INTERCEPTOR_ALIAS(__printf_chk)
FRT_INTERCEPTOR_ALIAS(vsnprintf)
FRT_INTERCEPTOR_ALIAS(snprintf)
FRT_INTERCEPTOR_ALIAS(vsprintf)
FRT_INTERCEPTOR_ALIAS(sprintf)
FRT_INTERCEPTOR_ALIAS(__vsnprintf_chk)
FRT_INTERCEPTOR_ALIAS(__snprintf_chk)
FRT_INTERCEPTOR_ALIAS(__vsprintf_chk)
FRT_INTERCEPTOR_ALIAS(__sprintf_chk)
FRT_INTERCEPTOR_ALIAS(vdprintf)
FRT_INTERCEPTOR_ALIAS(dprintf)
FRT_INTERCEPTOR_ALIAS(__vdprintf_chk)
FRT_INTERCEPTOR_ALIAS(__dprintf_chk)
FRT_INTERCEPTOR_ALIAS(vasprintf)
FRT_INTERCEPTOR_ALIAS(asprintf)
FRT_INTERCEPTOR_ALIAS(__vasprintf_chk)
FRT_INTERCEPTOR_ALIAS(__asprintf_chk)
