// Wide-character standard I/O (C11 7.29.3, 7.29.2): the same stream model as the byte calls
// (rt_stdio_stream.cpp). Every call that is not an _unlocked variant locks its stream (POSIX
// XSH 2.5), an atomic read-write of the FILE's lock field: fgetwc, getwc, getwchar, fputwc,
// putwc, putwchar, ungetwc, fgetws, fputws, fwide, fwprintf, wprintf, vfwprintf, vwprintf never
// race with each other on one FILE, and do with its fclose. The _unlocked ones (getwc_unlocked,
// fputws_unlocked, ...) are plain accesses of the stream's state, and of its lock field when
// the thread does not hold the stream (flockfile).
//
// Memory of the program: fputws reads the string up to its terminator, fgetws writes the wide
// characters it stored and the terminator; the wprintf family reads its format and %s/%ls
// arguments and writes its %n ones (rt_printf_args.cpp); swprintf/vswprintf write the wide
// characters they produce and the terminator (at most n; on overflow glibc stores nothing the
// program may rely on: the whole n then).
// The wide scanf family (fwscanf, swscanf, ...) is rt_scanf.cpp.
#include <stdarg.h>
#include <stdio.h>
#include <wchar.h>

#include "rt_printf_args.hpp"
#include "rt_real.hpp"
#include "rt_stdio.hpp"

extern "C" {
wint_t getwc_unlocked(FILE* f);
wint_t getwchar_unlocked();
wint_t fgetwc_unlocked(FILE* f);
wint_t fputwc_unlocked(wchar_t c, FILE* f);
wint_t putwc_unlocked(wchar_t c, FILE* f);
wint_t putwchar_unlocked(wchar_t c);
wchar_t* fgetws_unlocked(wchar_t* s, int n, FILE* f);
int fputws_unlocked(const wchar_t* s, FILE* f);
}

using namespace frt;

namespace {

FRT_DECLARE_REAL(fgetwc);
FRT_DECLARE_REAL(getwc);
FRT_DECLARE_REAL(getwchar);
FRT_DECLARE_REAL(fputwc);
FRT_DECLARE_REAL(putwc);
FRT_DECLARE_REAL(putwchar);
FRT_DECLARE_REAL(ungetwc);
FRT_DECLARE_REAL(fgetws);
FRT_DECLARE_REAL(fputws);
FRT_DECLARE_REAL(fwide);
FRT_DECLARE_REAL(vfwprintf);
FRT_DECLARE_REAL(vswprintf);
FRT_DECLARE_REAL(getwc_unlocked);
FRT_DECLARE_REAL(getwchar_unlocked);
FRT_DECLARE_REAL(fgetwc_unlocked);
FRT_DECLARE_REAL(fputwc_unlocked);
FRT_DECLARE_REAL(putwc_unlocked);
FRT_DECLARE_REAL(putwchar_unlocked);
FRT_DECLARE_REAL(fgetws_unlocked);
FRT_DECLARE_REAL(fputws_unlocked);

// A wide character put by the call made at pc through `real`: a send on the descriptor when it
// transmits the stream's buffer (rt_stdio_output.cpp).
template <class Real> wint_t wide_character_put(u64 pc, FILE* f, wchar_t c, Real real) {
    StreamOutput output(pc, f, &c, 1, StreamOutput::Wide{});
    const wint_t r = real();
    output.finished(r != WEOF ? 1 : -1);
    return r;
}
// A wide string put by the call made at pc through `real` (fputws and its _unlocked form).
template <class Real> int wide_text_put(u64 pc, FILE* f, const wchar_t* s, Real real) {
    StreamOutput output(pc, f, s, string_length(s), StreamOutput::Wide{});
    const int r = real();
    output.finished(r >= 0 ? 1 : -1);
    return r;
}

// The wide string at s (with its terminator) read or written by the program's call at pc.
void text_used(u64 pc, const wchar_t* s, bool write) {
    if (LibraryCall c(pc); c) c.text(s, write);
}

int printed(u64 pc, FILE* f, const wchar_t* format, va_list ap) {
    stream_used(pc, f);
    va_list copy;
    va_copy(copy, ap);
    wprintf_arguments(pc, format, copy);
    va_end(copy);
    StreamOutput output(pc, f, nullptr, StreamOutput::kUnknown, StreamOutput::Wide{});
    const int r = REAL(vfwprintf)(f, format, ap);
    output.finished(r);
    return r;
}

int formatted(u64 pc, wchar_t* buf, size_t n, const wchar_t* format, va_list ap) {
    va_list copy;
    va_copy(copy, ap);
    wprintf_arguments(pc, format, copy);
    va_end(copy);
    const int r = REAL(vswprintf)(buf, n, format, ap);
    const u64 written = r >= 0 ? static_cast<u64>(r) + 1 : n;
    if (n != 0)
        if (InterceptorScope scope(program_call(pc)); scope)
            library_access(scope.thread(), pc, buf, (written < n ? written : n) * sizeof(wchar_t),
                           true);
    return r;
}

} // namespace

// --- calls that lock the stream ----------------------------------------------------------------

FRT_EXPORT wint_t fgetwc(FILE* f) {
    StreamInput input(FRT_CALLER(), f);
    stream_used(FRT_CALLER(), f);
    return REAL(fgetwc)(f);
}
FRT_EXPORT wint_t getwc(FILE* f) {
    StreamInput input(FRT_CALLER(), f);
    stream_used(FRT_CALLER(), f);
    return REAL(getwc)(f);
}
FRT_EXPORT wint_t getwchar() {
    StreamInput input(FRT_CALLER(), stdin);
    stream_used(FRT_CALLER(), stdin);
    return REAL(getwchar)();
}
FRT_EXPORT wint_t fputwc(wchar_t c, FILE* f) {
    stream_used(FRT_CALLER(), f);
    return wide_character_put(FRT_CALLER(), f, c, [&] { return REAL(fputwc)(c, f); });
}
FRT_EXPORT wint_t putwc(wchar_t c, FILE* f) {
    stream_used(FRT_CALLER(), f);
    return wide_character_put(FRT_CALLER(), f, c, [&] { return REAL(putwc)(c, f); });
}
FRT_EXPORT wint_t putwchar(wchar_t c) {
    stream_used(FRT_CALLER(), stdout);
    return wide_character_put(FRT_CALLER(), stdout, c, [&] { return REAL(putwchar)(c); });
}
FRT_EXPORT wint_t ungetwc(wint_t c, FILE* f) {
    stream_used(FRT_CALLER(), f);
    return REAL(ungetwc)(c, f);
}
FRT_EXPORT wchar_t* fgetws(wchar_t* s, int n, FILE* f) {
    StreamInput input(FRT_CALLER(), f);
    stream_used(FRT_CALLER(), f);
    wchar_t* r = REAL(fgetws)(s, n, f);
    if (r != nullptr) text_used(FRT_CALLER(), s, true);
    return r;
}
FRT_EXPORT int fputws(const wchar_t* s, FILE* f) {
    stream_used(FRT_CALLER(), f);
    text_used(FRT_CALLER(), s, false);
    return wide_text_put(FRT_CALLER(), f, s, [&] { return REAL(fputws)(s, f); });
}
FRT_EXPORT int fwide(FILE* f, int mode) {
    stream_used(FRT_CALLER(), f);
    return REAL(fwide)(f, mode);
}
FRT_EXPORT int vfwprintf(FILE* f, const wchar_t* format, va_list ap) {
    return printed(FRT_CALLER(), f, format, ap);
}
FRT_EXPORT int vwprintf(const wchar_t* format, va_list ap) {
    return printed(FRT_CALLER(), stdout, format, ap);
}
FRT_EXPORT int fwprintf(FILE* f, const wchar_t* format, ...) {
    va_list ap;
    va_start(ap, format);
    const int r = printed(FRT_CALLER(), f, format, ap);
    va_end(ap);
    return r;
}
FRT_EXPORT int wprintf(const wchar_t* format, ...) {
    va_list ap;
    va_start(ap, format);
    const int r = printed(FRT_CALLER(), stdout, format, ap);
    va_end(ap);
    return r;
}
FRT_EXPORT int vswprintf(wchar_t* buf, size_t n, const wchar_t* format, va_list ap) {
    return formatted(FRT_CALLER(), buf, n, format, ap);
}
FRT_EXPORT int swprintf(wchar_t* buf, size_t n, const wchar_t* format, ...) {
    va_list ap;
    va_start(ap, format);
    const int r = formatted(FRT_CALLER(), buf, n, format, ap);
    va_end(ap);
    return r;
}

// --- _unlocked calls ---------------------------------------------------------------------------

FRT_EXPORT wint_t getwc_unlocked(FILE* f) {
    StreamInput input(FRT_CALLER(), f);
    stream_used_unlocked(FRT_CALLER(), f, true);
    return REAL(getwc_unlocked)(f);
}
FRT_EXPORT wint_t getwchar_unlocked() {
    StreamInput input(FRT_CALLER(), stdin);
    stream_used_unlocked(FRT_CALLER(), stdin, true);
    return REAL(getwchar_unlocked)();
}
FRT_EXPORT wint_t fgetwc_unlocked(FILE* f) {
    StreamInput input(FRT_CALLER(), f);
    stream_used_unlocked(FRT_CALLER(), f, true);
    return REAL(fgetwc_unlocked)(f);
}
FRT_EXPORT wint_t fputwc_unlocked(wchar_t c, FILE* f) {
    stream_used_unlocked(FRT_CALLER(), f, true);
    return wide_character_put(FRT_CALLER(), f, c, [&] { return REAL(fputwc_unlocked)(c, f); });
}
FRT_EXPORT wint_t putwc_unlocked(wchar_t c, FILE* f) {
    stream_used_unlocked(FRT_CALLER(), f, true);
    return wide_character_put(FRT_CALLER(), f, c, [&] { return REAL(putwc_unlocked)(c, f); });
}
FRT_EXPORT wint_t putwchar_unlocked(wchar_t c) {
    stream_used_unlocked(FRT_CALLER(), stdout, true);
    return wide_character_put(FRT_CALLER(), stdout, c, [&] { return REAL(putwchar_unlocked)(c); });
}
FRT_EXPORT wchar_t* fgetws_unlocked(wchar_t* s, int n, FILE* f) {
    StreamInput input(FRT_CALLER(), f);
    stream_used_unlocked(FRT_CALLER(), f, true);
    wchar_t* r = REAL(fgetws_unlocked)(s, n, f);
    if (r != nullptr) text_used(FRT_CALLER(), s, true);
    return r;
}
FRT_EXPORT int fputws_unlocked(const wchar_t* s, FILE* f) {
    stream_used_unlocked(FRT_CALLER(), f, true);
    text_used(FRT_CALLER(), s, false);
    return wide_text_put(FRT_CALLER(), f, s, [&] { return REAL(fputws_unlocked)(s, f); });
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(fgetwc)
FRT_INTERCEPTOR_ALIAS(getwc)
FRT_INTERCEPTOR_ALIAS(getwchar)
FRT_INTERCEPTOR_ALIAS(fputwc)
FRT_INTERCEPTOR_ALIAS(putwc)
FRT_INTERCEPTOR_ALIAS(putwchar)
FRT_INTERCEPTOR_ALIAS(ungetwc)
FRT_INTERCEPTOR_ALIAS(fgetws)
FRT_INTERCEPTOR_ALIAS(fputws)
FRT_INTERCEPTOR_ALIAS(fwide)
FRT_INTERCEPTOR_ALIAS(vfwprintf)
FRT_INTERCEPTOR_ALIAS(vwprintf)
FRT_INTERCEPTOR_ALIAS(fwprintf)
FRT_INTERCEPTOR_ALIAS(wprintf)
FRT_INTERCEPTOR_ALIAS(vswprintf)
FRT_INTERCEPTOR_ALIAS(swprintf)
FRT_INTERCEPTOR_ALIAS(getwc_unlocked)
FRT_INTERCEPTOR_ALIAS(getwchar_unlocked)
FRT_INTERCEPTOR_ALIAS(fgetwc_unlocked)
FRT_INTERCEPTOR_ALIAS(fputwc_unlocked)
FRT_INTERCEPTOR_ALIAS(putwc_unlocked)
FRT_INTERCEPTOR_ALIAS(putwchar_unlocked)
FRT_INTERCEPTOR_ALIAS(fgetws_unlocked)
FRT_INTERCEPTOR_ALIAS(fputws_unlocked)
