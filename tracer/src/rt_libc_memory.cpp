// Memory effects of C library string functions and of stdio on the program's memory: the
// bytes a call reads and writes are accesses at the caller's program counter, as if the call
// were instrumented code (memcpy/memmove/memset are in rt_memory.c).
//
//   str*, mem*     the bytes the function examines or writes (strcmp: both strings up to and
//                  including the first difference; memcmp/bcmp: all n bytes, as TSan's
//                  strict_memcmp; strcpy/strcat/stpcpy: source read, destination written,
//                  terminator included; strdup: the source read).
//   stdio          fwrite/fputs/puts/perror read the program's buffer, fread/fgets write it. A FILE
//   is
//                  locked by every stdio call (POSIX flockfile), so calls on one FILE never
//                  race with each other; they do with fclose, which destroys it. Each call is
//                  an atomic read-write of the FILE's lock field (atomic accesses do not race
//                  with each other), fclose a plain write of the FILE (rt_stdio.cpp, with the
//                  streams' descriptors; rt_stdio_stream.cpp: the other FILE calls, the
//                  _unlocked ones and flockfile). The lock is not recorded
//                  as synchronization: ThreadSanitizer does not see it either, and ordering two
//                  threads by their printf calls would hide the races of programs that print.
//   strerror_r     writes the buffer it fills.
//   strtok_r       reads and writes the caller's *saveptr, reads what it scanned, writes the
//                  terminator it stores over a delimiter; strsep the same with *stringp.
//   more strings   memccpy (up to and including the byte found), strcasestr, stpncpy, strcoll,
//                  strxfrm, strxfrm_l (the source read whole, what it stores written).
//   searches       memchr/rawmemchr/strchrnul/strpbrk/strspn/strcspn: the bytes examined up to
//                  and including the one that ended the search (memrchr: all n, as TSan; the
//                  sets of strpbrk/strspn/strcspn and memmem's needle: whole), memmem: the
//                  haystack up to the end of the match (all of it without one).
//   fills, copies  bzero/explicit_bzero write n bytes; mempcpy reads and writes n, wmemcpy
//                  n wide characters, wmemset writes them; wcslen reads up to the terminator.
//   qsort/qsort_r  a write of the whole array (elements are moved around: TSan's model); the
//                  comparator is the program's code, traced where it is instrumented (it runs
//                  outside the runtime). bsearch only calls the comparator: nothing of its own.
//   printf         rt_stdio_printf.cpp.
//   getline        getline/getdelim write *lineptr and *n (the buffer may be reallocated: the
//                  allocator sees it) and the line with its terminator.
// The calls are only traced from threads the runtime already knows (these functions also run
// while a thread is being set up), and never from inside the runtime.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

#include "rt_fd.hpp"
#include "rt_library_call.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_stdio.hpp"

using namespace frt;

namespace {

void accessed(u64 pc, const void* addr, u64 size, bool write) {
    if (InterceptorScope scope(program_call(pc)); scope) {
        library_access(scope.thread(), pc, addr, size, write);
    }
}

FRT_DECLARE_REAL(memcmp);
FRT_DECLARE_REAL(bcmp);
FRT_DECLARE_REAL(strcmp);
FRT_DECLARE_REAL(strncmp);
FRT_DECLARE_REAL(strcasecmp);
FRT_DECLARE_REAL(strncasecmp);
// (C++'s <cstring> overloads these: name the C signatures)
using find_char_fn = char* (*)(const char*, int);
using find_str_fn = char* (*)(const char*, const char*);
FRT_DECLARE_REAL_TYPED(strchr, find_char_fn);
FRT_DECLARE_REAL_TYPED(strrchr, find_char_fn);
FRT_DECLARE_REAL_TYPED(strstr, find_str_fn);
FRT_DECLARE_REAL(strdup);
FRT_DECLARE_REAL(strndup);
FRT_DECLARE_REAL(strtok_r);
FRT_DECLARE_REAL(strsep);
FRT_DECLARE_REAL(memccpy);
FRT_DECLARE_REAL_TYPED(strcasestr, find_str_fn);
FRT_DECLARE_REAL(stpncpy);
FRT_DECLARE_REAL(strcoll);
FRT_DECLARE_REAL(strxfrm);
FRT_DECLARE_REAL(strxfrm_l);
FRT_DECLARE_REAL(fwrite);
FRT_DECLARE_REAL(fread);
FRT_DECLARE_REAL(fputs);
FRT_DECLARE_REAL(puts);
FRT_DECLARE_REAL(perror);
FRT_DECLARE_REAL(fgets);
FRT_DECLARE_REAL(fputc);
FRT_DECLARE_REAL(putc);
FRT_DECLARE_REAL(putchar);
FRT_DECLARE_REAL(fflush);
using strerror_r_fn = char* (*)(int, char*, size_t);
FRT_DECLARE_REAL_TYPED(strerror_r, strerror_r_fn);
using find_byte_fn = void* (*)(const void*, int, size_t);
using find_byte_unbounded_fn = void* (*)(const void*, int);
using find_set_fn = char* (*)(const char*, const char*);
using find_mem_fn = void* (*)(const void*, size_t, const void*, size_t);
FRT_DECLARE_REAL_TYPED(memchr, find_byte_fn);
FRT_DECLARE_REAL_TYPED(memrchr, find_byte_fn);
FRT_DECLARE_REAL_TYPED(rawmemchr, find_byte_unbounded_fn);
FRT_DECLARE_REAL_TYPED(strchrnul, find_char_fn);
FRT_DECLARE_REAL_TYPED(strpbrk, find_set_fn);
FRT_DECLARE_REAL_TYPED(memmem, find_mem_fn);
FRT_DECLARE_REAL(strspn);
FRT_DECLARE_REAL(strcspn);
FRT_DECLARE_REAL(bzero);
FRT_DECLARE_REAL(explicit_bzero);
FRT_DECLARE_REAL(mempcpy);
FRT_DECLARE_REAL(wmemcpy);
FRT_DECLARE_REAL(wmemset);
FRT_DECLARE_REAL(wcslen);
FRT_DECLARE_REAL(qsort);
FRT_DECLARE_REAL(qsort_r);
FRT_DECLARE_REAL(getdelim);

// strcmp & co.: the index of the first difference or terminator (compared up to max bytes).
template <class Eq> u64 compared(const char* a, const char* b, u64 max, Eq eq) {
    u64 i = 0;
    while (i < max && a[i] != 0 && eq(a[i], b[i]))
        ++i;
    return i < max ? i + 1 : max;
}
constexpr auto kSame = [](char x, char y) { return x == y; };
constexpr auto kSameIgnoringCase = [](char x, char y) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
    return lower(x) == lower(y);
};

} // namespace

// --- memory and strings -----------------------------------------------------------------------

FRT_EXPORT int memcmp(const void* a, const void* b, size_t n) {
    accessed(FRT_CALLER(), a, n, false);
    accessed(FRT_CALLER(), b, n, false);
    if (auto real = REAL(memcmp)) return real(a, b, n);
    const auto* x = static_cast<const unsigned char*>(a);
    const auto* y = static_cast<const unsigned char*>(b);
    for (size_t i = 0; i < n; ++i)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}
FRT_EXPORT int bcmp(const void* a, const void* b, size_t n) {
    accessed(FRT_CALLER(), a, n, false);
    accessed(FRT_CALLER(), b, n, false);
    return REAL(bcmp)(a, b, n);
}
FRT_EXPORT int strcmp(const char* a, const char* b) {
    const u64 n = compared(a, b, ~0ull, kSame);
    accessed(FRT_CALLER(), a, n, false);
    accessed(FRT_CALLER(), b, n, false);
    if (auto real = REAL(strcmp)) return real(a, b);
    const u64 i = n - 1;
    return static_cast<unsigned char>(a[i]) - static_cast<unsigned char>(b[i]);
}
FRT_EXPORT int strncmp(const char* a, const char* b, size_t max) {
    const u64 n = compared(a, b, max, kSame);
    accessed(FRT_CALLER(), a, n, false);
    accessed(FRT_CALLER(), b, n, false);
    return REAL(strncmp)(a, b, max);
}
FRT_EXPORT int strcasecmp(const char* a, const char* b) {
    const u64 n = compared(a, b, ~0ull, kSameIgnoringCase);
    accessed(FRT_CALLER(), a, n, false);
    accessed(FRT_CALLER(), b, n, false);
    return REAL(strcasecmp)(a, b);
}
FRT_EXPORT int strncasecmp(const char* a, const char* b, size_t max) {
    const u64 n = compared(a, b, max, kSameIgnoringCase);
    accessed(FRT_CALLER(), a, n, false);
    accessed(FRT_CALLER(), b, n, false);
    return REAL(strncasecmp)(a, b, max);
}
// (C++'s <cstring> declares only the const-correct overloads: define the C symbols by name)
FRT_EXPORT char* c_strchr(const char* s, int c) __asm__("strchr");
FRT_EXPORT char* c_strrchr(const char* s, int c) __asm__("strrchr");
FRT_EXPORT char* c_strstr(const char* s, const char* w) __asm__("strstr");
FRT_EXPORT char* c_strchr(const char* s, int c) {
    char* r = REAL(strchr)(s, c);
    accessed(FRT_CALLER(), s, r ? static_cast<u64>(r - s) + 1 : string_length(s) + 1, false);
    return r;
}
FRT_EXPORT char* c_strrchr(const char* s, int c) {
    accessed(FRT_CALLER(), s, string_length(s) + 1, false);
    return REAL(strrchr)(s, c);
}
FRT_EXPORT char* c_strstr(const char* s, const char* w) {
    accessed(FRT_CALLER(), s, string_length(s) + 1, false);
    accessed(FRT_CALLER(), w, string_length(w) + 1, false);
    return REAL(strstr)(s, w);
}
FRT_EXPORT size_t strlen(const char* s) {
    const u64 n = string_length(s);
    accessed(FRT_CALLER(), s, n + 1, false);
    return n;
}
FRT_EXPORT size_t strnlen(const char* s, size_t max) {
    const u64 n = string_length(s, max);
    accessed(FRT_CALLER(), s, n < max ? n + 1 : n, false);
    return n;
}
FRT_EXPORT char* strcpy(char* d, const char* s) {
    const u64 n = string_length(s) + 1;
    accessed(FRT_CALLER(), s, n, false);
    accessed(FRT_CALLER(), d, n, true);
    for (u64 i = 0; i < n; ++i)
        d[i] = s[i];
    return d;
}
FRT_EXPORT char* stpcpy(char* d, const char* s) {
    const u64 n = string_length(s) + 1;
    accessed(FRT_CALLER(), s, n, false);
    accessed(FRT_CALLER(), d, n, true);
    for (u64 i = 0; i < n; ++i)
        d[i] = s[i];
    return d + n - 1;
}
FRT_EXPORT char* strncpy(char* d, const char* s, size_t max) {
    const u64 n = string_length(s, max);
    accessed(FRT_CALLER(), s, n < max ? n + 1 : n, false);
    accessed(FRT_CALLER(), d, max, true);
    for (u64 i = 0; i < max; ++i)
        d[i] = i < n ? s[i] : 0;
    return d;
}
FRT_EXPORT char* strcat(char* d, const char* s) {
    const u64 dn = string_length(d);
    const u64 n = string_length(s) + 1;
    accessed(FRT_CALLER(), d, dn, false);
    accessed(FRT_CALLER(), s, n, false);
    accessed(FRT_CALLER(), d + dn, n, true);
    for (u64 i = 0; i < n; ++i)
        d[dn + i] = s[i];
    return d;
}
FRT_EXPORT char* strncat(char* d, const char* s, size_t max) {
    const u64 dn = string_length(d);
    const u64 n = string_length(s, max);
    accessed(FRT_CALLER(), d, dn, false);
    accessed(FRT_CALLER(), s, n < max ? n + 1 : n, false);
    accessed(FRT_CALLER(), d + dn, n + 1, true);
    for (u64 i = 0; i < n; ++i)
        d[dn + i] = s[i];
    d[dn + n] = 0;
    return d;
}
FRT_EXPORT char* strdup(const char* s) {
    accessed(FRT_CALLER(), s, string_length(s) + 1, false);
    return REAL(strdup)(s);
}
FRT_EXPORT char* strndup(const char* s, size_t max) {
    const u64 n = string_length(s, max);
    accessed(FRT_CALLER(), s, n < max ? n + 1 : n, false);
    return REAL(strndup)(s, max);
}
// strtok_r keeps its position in the caller's *saveptr: read when s is null, written always;
// the bytes scanned (skipped delimiters, the token and the byte that ended it) read, and the
// terminator it stores over a delimiter written.
FRT_EXPORT char* strtok_r(char* s, const char* delim, char** saveptr) {
    const u64 pc = FRT_CALLER();
    accessed(pc, delim, string_length(delim) + 1, false);
    if (s == nullptr) accessed(pc, saveptr, sizeof *saveptr, false);
    char* start = s != nullptr ? s : *saveptr;
    char* r = REAL(strtok_r)(s, delim, saveptr);
    accessed(pc, saveptr, sizeof *saveptr, true);
    if (r != nullptr) {
        const u64 n = string_length(r);
        accessed(pc, start, static_cast<u64>(r - start) + n + 1, false);
        if (*saveptr == r + n + 1) accessed(pc, r + n, 1, true);
    } else if (start != nullptr) {
        accessed(pc, start, string_length(start) + 1, false);
    }
    return r;
}
// strsep moves *stringp past the first delimiter, which it overwrites with a terminator.
FRT_EXPORT char* strsep(char** stringp, const char* delim) {
    const u64 pc = FRT_CALLER();
    accessed(pc, stringp, sizeof *stringp, false);
    char* start = *stringp;
    char* r = REAL(strsep)(stringp, delim);
    if (start == nullptr) return r;
    accessed(pc, delim, string_length(delim) + 1, false);
    accessed(pc, stringp, sizeof *stringp, true);
    if (*stringp == nullptr) {
        accessed(pc, start, string_length(start) + 1, false);
    } else {
        accessed(pc, start, static_cast<u64>(*stringp - start), false);
        accessed(pc, *stringp - 1, 1, true);
    }
    return r;
}
// memccpy copies up to and including the first c (r: just past it), or n bytes.
FRT_EXPORT void* memccpy(void* d, const void* s, int c, size_t n) {
    void* r = REAL(memccpy)(d, s, c, n);
    const u64 k =
        r != nullptr ? static_cast<u64>(static_cast<char*>(r) - static_cast<char*>(d)) : n;
    accessed(FRT_CALLER(), s, k, false);
    accessed(FRT_CALLER(), d, k, true);
    return r;
}
FRT_EXPORT char* c_strcasestr(const char* s, const char* w) __asm__("strcasestr");
FRT_EXPORT char* c_strcasestr(const char* s, const char* w) {
    accessed(FRT_CALLER(), s, string_length(s) + 1, false);
    accessed(FRT_CALLER(), w, string_length(w) + 1, false);
    return REAL(strcasestr)(s, w);
}
FRT_EXPORT char* stpncpy(char* d, const char* s, size_t max) {
    const u64 n = string_length(s, max);
    accessed(FRT_CALLER(), s, n < max ? n + 1 : n, false);
    accessed(FRT_CALLER(), d, max, true);
    return REAL(stpncpy)(d, s, max);
}
FRT_EXPORT int strcoll(const char* a, const char* b) {
    accessed(FRT_CALLER(), a, string_length(a) + 1, false);
    accessed(FRT_CALLER(), b, string_length(b) + 1, false);
    return REAL(strcoll)(a, b);
}
FRT_EXPORT size_t strxfrm(char* d, const char* s, size_t n) {
    return collation_transformed(FRT_CALLER(), d, s, n, [&] { return REAL(strxfrm)(d, s, n); });
}
FRT_EXPORT size_t strxfrm_l(char* d, const char* s, size_t n, locale_t locale) {
    return collation_transformed(FRT_CALLER(), d, s, n,
                                 [&] { return REAL(strxfrm_l)(d, s, n, locale); });
}
// The GNU strerror_r (what _GNU_SOURCE programs and C++ get): may or may not use buf.
FRT_EXPORT char* strerror_r(int e, char* buf, size_t n) {
    auto real = REAL(strerror_r);
    char* r = real(e, buf, n);
    if (r == buf && n != 0) accessed(FRT_CALLER(), buf, string_length(buf, n - 1) + 1, true);
    return r;
}

// --- searches, fills, copies, sorting ---------------------------------------------------------

// (C++'s <string.h> declares const-correct overloads of these too: define the C symbols)
FRT_EXPORT void* c_memchr(const void* s, int c, size_t n) __asm__("memchr");
FRT_EXPORT void* c_memrchr(const void* s, int c, size_t n) __asm__("memrchr");
FRT_EXPORT void* c_rawmemchr(const void* s, int c) __asm__("rawmemchr");
FRT_EXPORT char* c_strchrnul(const char* s, int c) __asm__("strchrnul");
FRT_EXPORT char* c_strpbrk(const char* s, const char* set) __asm__("strpbrk");
FRT_EXPORT void* c_memchr(const void* s, int c, size_t n) {
    void* r = REAL(memchr)(s, c, n);
    accessed(FRT_CALLER(), s,
             r ? static_cast<u64>(static_cast<const char*>(r) - static_cast<const char*>(s)) + 1
               : n,
             false);
    return r;
}
FRT_EXPORT void* c_memrchr(const void* s, int c, size_t n) {
    accessed(FRT_CALLER(), s, n, false);
    return REAL(memrchr)(s, c, n);
}
FRT_EXPORT void* c_rawmemchr(const void* s, int c) {
    void* r = REAL(rawmemchr)(s, c);
    accessed(FRT_CALLER(), s,
             static_cast<u64>(static_cast<char*>(r) - static_cast<const char*>(s)) + 1, false);
    return r;
}
FRT_EXPORT char* c_strchrnul(const char* s, int c) {
    char* r = REAL(strchrnul)(s, c);
    accessed(FRT_CALLER(), s, static_cast<u64>(r - s) + 1, false);
    return r;
}
FRT_EXPORT char* c_strpbrk(const char* s, const char* set) {
    char* r = REAL(strpbrk)(s, set);
    accessed(FRT_CALLER(), s, r ? static_cast<u64>(r - s) + 1 : string_length(s) + 1, false);
    accessed(FRT_CALLER(), set, string_length(set) + 1, false);
    return r;
}
FRT_EXPORT size_t strspn(const char* s, const char* set) {
    const size_t r = REAL(strspn)(s, set);
    accessed(FRT_CALLER(), s, r + 1, false); // the span and the byte that ended it
    accessed(FRT_CALLER(), set, string_length(set) + 1, false);
    return r;
}
FRT_EXPORT size_t strcspn(const char* s, const char* set) {
    const size_t r = REAL(strcspn)(s, set);
    accessed(FRT_CALLER(), s, r + 1, false);
    accessed(FRT_CALLER(), set, string_length(set) + 1, false);
    return r;
}
FRT_EXPORT void* memmem(const void* h, size_t hn, const void* w, size_t wn) {
    void* r = REAL(memmem)(h, hn, w, wn);
    accessed(FRT_CALLER(), h,
             r ? static_cast<u64>(static_cast<const char*>(r) - static_cast<const char*>(h)) + wn
               : hn,
             false);
    accessed(FRT_CALLER(), w, wn, false);
    return r;
}
FRT_EXPORT void bzero(void* p, size_t n) {
    accessed(FRT_CALLER(), p, n, true);
    REAL(bzero)(p, n);
}
// (defined under another C name: glibc declares p write-only, and gcc takes passing it on for
// a read of uninitialized memory)
FRT_EXPORT void c_explicit_bzero(void* p, size_t n) __asm__("explicit_bzero");
FRT_EXPORT void c_explicit_bzero(void* p, size_t n) {
    accessed(FRT_CALLER(), p, n, true);
    REAL(explicit_bzero)(p, n);
}
FRT_EXPORT void* mempcpy(void* d, const void* s, size_t n) {
    accessed(FRT_CALLER(), s, n, false);
    accessed(FRT_CALLER(), d, n, true);
    return REAL(mempcpy)(d, s, n);
}
FRT_EXPORT wchar_t* wmemcpy(wchar_t* d, const wchar_t* s, size_t n) {
    accessed(FRT_CALLER(), s, n * sizeof(wchar_t), false);
    accessed(FRT_CALLER(), d, n * sizeof(wchar_t), true);
    return REAL(wmemcpy)(d, s, n);
}
FRT_EXPORT wchar_t* wmemset(wchar_t* d, wchar_t c, size_t n) {
    accessed(FRT_CALLER(), d, n * sizeof(wchar_t), true);
    return REAL(wmemset)(d, c, n);
}
FRT_EXPORT size_t wcslen(const wchar_t* s) {
    const size_t n = REAL(wcslen)(s);
    accessed(FRT_CALLER(), s, (n + 1) * sizeof(wchar_t), false);
    return n;
}
FRT_EXPORT void qsort(void* base, size_t n, size_t size, int (*compare)(const void*, const void*)) {
    accessed(FRT_CALLER(), base, n * size, true);
    REAL(qsort)(base, n, size, compare);
}
FRT_EXPORT void qsort_r(void* base, size_t n, size_t size,
                        int (*compare)(const void*, const void*, void*), void* arg) {
    accessed(FRT_CALLER(), base, n * size, true);
    REAL(qsort_r)(base, n, size, compare, arg);
}

// --- stdio -------------------------------------------------------------------------------------

FRT_EXPORT size_t fwrite(const void* p, size_t size, size_t n, FILE* f) {
    stream_used(FRT_CALLER(), f);
    accessed(FRT_CALLER(), p, size * n, false);
    StreamOutput output(FRT_CALLER(), f, p, size * n);
    const size_t r = REAL(fwrite)(p, size, n, f);
    output.finished(static_cast<i64>(r * size));
    return r;
}
FRT_EXPORT size_t fread(void* p, size_t size, size_t n, FILE* f) {
    StreamInput input(FRT_CALLER(), f);
    stream_used(FRT_CALLER(), f);
    const size_t r = REAL(fread)(p, size, n, f);
    accessed(FRT_CALLER(), p, size * r, true);
    return r;
}
FRT_EXPORT int fputs(const char* s, FILE* f) {
    stream_used(FRT_CALLER(), f);
    accessed(FRT_CALLER(), s, string_length(s) + 1, false);
    StreamOutput output(FRT_CALLER(), f, s, string_length(s));
    const int r = REAL(fputs)(s, f);
    output.finished(r >= 0 ? 1 : -1);
    return r;
}
FRT_EXPORT void perror(const char* s) {
    stream_used(FRT_CALLER(), stderr);
    if (s != nullptr) accessed(FRT_CALLER(), s, string_length(s) + 1, false);
    REAL(perror)(s);
}
FRT_EXPORT int puts(const char* s) {
    stream_used(FRT_CALLER(), stdout);
    accessed(FRT_CALLER(), s, string_length(s) + 1, false);
    StreamOutput output(FRT_CALLER(), stdout, s, string_length(s) + 1, true);
    const int r = REAL(puts)(s);
    output.finished(r >= 0 ? 1 : -1);
    return r;
}
FRT_EXPORT char* fgets(char* s, int n, FILE* f) {
    StreamInput input(FRT_CALLER(), f);
    stream_used(FRT_CALLER(), f);
    char* r = REAL(fgets)(s, n, f);
    if (r != nullptr) accessed(FRT_CALLER(), s, string_length(s) + 1, true);
    return r;
}
FRT_EXPORT int fputc(int c, FILE* f) {
    stream_used(FRT_CALLER(), f);
    const char text = static_cast<char>(c);
    StreamOutput output(FRT_CALLER(), f, &text, 1);
    const int r = REAL(fputc)(c, f);
    output.finished(r != EOF ? 1 : -1);
    return r;
}
FRT_EXPORT int putc(int c, FILE* f) {
    stream_used(FRT_CALLER(), f);
    const char text = static_cast<char>(c);
    StreamOutput output(FRT_CALLER(), f, &text, 1);
    const int r = REAL(putc)(c, f);
    output.finished(r != EOF ? 1 : -1);
    return r;
}
FRT_EXPORT int putchar(int c) {
    stream_used(FRT_CALLER(), stdout);
    const char text = static_cast<char>(c);
    StreamOutput output(FRT_CALLER(), stdout, &text, 1);
    const int r = REAL(putchar)(c);
    output.finished(r != EOF ? 1 : -1);
    return r;
}
ssize_t line_read(u64 pc, char** line, size_t* n, int delim, FILE* f) {
    StreamInput input(pc, f);
    stream_used(pc, f);
    const ssize_t r = REAL(getdelim)(line, n, delim, f);
    accessed(pc, line, sizeof *line, true);
    accessed(pc, n, sizeof *n, true);
    if (r > 0) accessed(pc, *line, static_cast<u64>(r) + 1, true);
    return r;
}
FRT_EXPORT ssize_t getdelim(char** line, size_t* n, int delim, FILE* f) {
    return line_read(FRT_CALLER(), line, n, delim, f);
}
FRT_EXPORT ssize_t getline(char** line, size_t* n, FILE* f) {
    return line_read(FRT_CALLER(), line, n, '\n', f);
}
FRT_EXPORT ssize_t __getdelim(char** line, size_t* n, int delim, FILE* f) {
    return line_read(FRT_CALLER(), line, n, delim, f);
}
FRT_EXPORT int fflush(FILE* f) {
    stream_used(FRT_CALLER(), f);
    if (f != nullptr && output_pending(f)) // its buffer goes out
        fd::writes_flushed(f->_fileno, FRT_CALLER());
    const int r = REAL(fflush)(f);
    memory_stream_flushed(FRT_CALLER(), f);
    return r;
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(memcmp)
FRT_INTERCEPTOR_ALIAS(bcmp)
FRT_INTERCEPTOR_ALIAS(strcmp)
FRT_INTERCEPTOR_ALIAS(strncmp)
FRT_INTERCEPTOR_ALIAS(strcasecmp)
FRT_INTERCEPTOR_ALIAS(strncasecmp)
FRT_INTERCEPTOR_ALIAS(strchr)
FRT_INTERCEPTOR_ALIAS(strrchr)
FRT_INTERCEPTOR_ALIAS(strstr)
FRT_INTERCEPTOR_ALIAS(strlen)
FRT_INTERCEPTOR_ALIAS(strnlen)
FRT_INTERCEPTOR_ALIAS(strcpy)
FRT_INTERCEPTOR_ALIAS(stpcpy)
FRT_INTERCEPTOR_ALIAS(strncpy)
FRT_INTERCEPTOR_ALIAS(strcat)
FRT_INTERCEPTOR_ALIAS(strncat)
FRT_INTERCEPTOR_ALIAS(strdup)
FRT_INTERCEPTOR_ALIAS(strndup)
FRT_INTERCEPTOR_ALIAS(strerror_r)
FRT_INTERCEPTOR_ALIAS(strtok_r)
FRT_INTERCEPTOR_ALIAS(strsep)
FRT_INTERCEPTOR_ALIAS(memccpy)
FRT_INTERCEPTOR_ALIAS(strcasestr)
FRT_INTERCEPTOR_ALIAS(stpncpy)
FRT_INTERCEPTOR_ALIAS(strcoll)
FRT_INTERCEPTOR_ALIAS(strxfrm)
FRT_INTERCEPTOR_ALIAS(strxfrm_l)
FRT_INTERCEPTOR_ALIAS(fwrite)
FRT_INTERCEPTOR_ALIAS(fread)
FRT_INTERCEPTOR_ALIAS(fputs)
FRT_INTERCEPTOR_ALIAS(puts)
FRT_INTERCEPTOR_ALIAS(perror)
FRT_INTERCEPTOR_ALIAS(fgets)
FRT_INTERCEPTOR_ALIAS(fputc)
FRT_INTERCEPTOR_ALIAS(putc)
FRT_INTERCEPTOR_ALIAS(putchar)
FRT_INTERCEPTOR_ALIAS(fflush)
FRT_INTERCEPTOR_ALIAS(memchr)
FRT_INTERCEPTOR_ALIAS(memrchr)
FRT_INTERCEPTOR_ALIAS(rawmemchr)
FRT_INTERCEPTOR_ALIAS(strchrnul)
FRT_INTERCEPTOR_ALIAS(strpbrk)
FRT_INTERCEPTOR_ALIAS(strspn)
FRT_INTERCEPTOR_ALIAS(strcspn)
FRT_INTERCEPTOR_ALIAS(memmem)
FRT_INTERCEPTOR_ALIAS(bzero)
FRT_INTERCEPTOR_ALIAS(explicit_bzero)
FRT_INTERCEPTOR_ALIAS(mempcpy)
FRT_INTERCEPTOR_ALIAS(wmemcpy)
FRT_INTERCEPTOR_ALIAS(wmemset)
FRT_INTERCEPTOR_ALIAS(wcslen)
FRT_INTERCEPTOR_ALIAS(qsort)
FRT_INTERCEPTOR_ALIAS(qsort_r)
FRT_INTERCEPTOR_ALIAS(getdelim)
FRT_INTERCEPTOR_ALIAS(getline)
FRT_INTERCEPTOR_ALIAS(__getdelim)
