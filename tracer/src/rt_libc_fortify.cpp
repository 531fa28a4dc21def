// The _FORTIFY_SOURCE forms of the memory, string and buffer-filling calls (glibc's
// debug/*_chk.c): with -D_FORTIFY_SOURCE=1/2 at -O1 and up (Ubuntu's gcc: by default), gcc and
// clang call __memcpy_chk(d, s, n, size) & co. where the destination's size is known, instead
// of memcpy. Each checks n against size (aborting on overflow) and does what the plain call
// does: the same accesses at the caller's program counter as rt_memory.c, rt_libc_memory.cpp
// and rt_libc_results.cpp record for it, then the real _chk function (which copies inside the
// library, unseen).
//
//   __memcpy_chk, __memmove_chk, __mempcpy_chk   n bytes read and written
//   __memset_chk                                 n bytes written
//   __strcpy_chk, __stpcpy_chk, __strcat_chk,    the source up to its terminator (or n) read,
//   __strncpy_chk, __strncat_chk                 what they store written (the destination's
//                                                string read by the cat forms)
//   __fgets_chk, __fread_chk                     a locked use of the stream, what they stored
//   __getcwd_chk, __realpath_chk, __readlink_chk what they stored
//   __wmemcpy_chk, __wmemmove_chk, __wmempcpy_chk, __wmemset_chk, __wcscpy_chk, __wcpcpy_chk,
//   __wcsncpy_chk, __wcpncpy_chk, __wcscat_chk, __wcsncat_chk: the same in wide characters
// Only from threads the runtime already knows, never from inside the runtime.
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "rt_real.hpp"
#include "rt_stdio.hpp"

extern "C" {
void* __memcpy_chk(void* d, const void* s, size_t n, size_t size);
void* __memmove_chk(void* d, const void* s, size_t n, size_t size);
void* __mempcpy_chk(void* d, const void* s, size_t n, size_t size);
void* __memset_chk(void* d, int c, size_t n, size_t size);
char* __strcpy_chk(char* d, const char* s, size_t size);
char* __stpcpy_chk(char* d, const char* s, size_t size);
char* __strncpy_chk(char* d, const char* s, size_t n, size_t size);
char* __strcat_chk(char* d, const char* s, size_t size);
char* __strncat_chk(char* d, const char* s, size_t n, size_t size);
char* __fgets_chk(char* s, size_t size, int n, FILE* f);
size_t __fread_chk(void* p, size_t size_of_p, size_t size, size_t n, FILE* f);
char* __getcwd_chk(char* buf, size_t n, size_t size);
char* __realpath_chk(const char* path, char* resolved, size_t size);
ssize_t __readlink_chk(const char* path, char* buf, size_t n, size_t size);
wchar_t* __wmemcpy_chk(wchar_t* d, const wchar_t* s, size_t n, size_t size);
wchar_t* __wmemmove_chk(wchar_t* d, const wchar_t* s, size_t n, size_t size);
wchar_t* __wmempcpy_chk(wchar_t* d, const wchar_t* s, size_t n, size_t size);
wchar_t* __wmemset_chk(wchar_t* d, wchar_t c, size_t n, size_t size);
wchar_t* __wcscpy_chk(wchar_t* d, const wchar_t* s, size_t size);
wchar_t* __wcpcpy_chk(wchar_t* d, const wchar_t* s, size_t size);
wchar_t* __wcsncpy_chk(wchar_t* d, const wchar_t* s, size_t n, size_t size);
wchar_t* __wcpncpy_chk(wchar_t* d, const wchar_t* s, size_t n, size_t size);
wchar_t* __wcscat_chk(wchar_t* d, const wchar_t* s, size_t size);
wchar_t* __wcsncat_chk(wchar_t* d, const wchar_t* s, size_t n, size_t size);
}

using namespace frt;

namespace {

FRT_DECLARE_REAL(__memcpy_chk);
FRT_DECLARE_REAL(__memmove_chk);
FRT_DECLARE_REAL(__mempcpy_chk);
FRT_DECLARE_REAL(__memset_chk);
FRT_DECLARE_REAL(__strcpy_chk);
FRT_DECLARE_REAL(__stpcpy_chk);
FRT_DECLARE_REAL(__strncpy_chk);
FRT_DECLARE_REAL(__strcat_chk);
FRT_DECLARE_REAL(__strncat_chk);
FRT_DECLARE_REAL(__fgets_chk);
FRT_DECLARE_REAL(__fread_chk);
FRT_DECLARE_REAL(__getcwd_chk);
FRT_DECLARE_REAL(__realpath_chk);
FRT_DECLARE_REAL(__readlink_chk);
FRT_DECLARE_REAL(__wmemcpy_chk);
FRT_DECLARE_REAL(__wmemmove_chk);
FRT_DECLARE_REAL(__wmempcpy_chk);
FRT_DECLARE_REAL(__wmemset_chk);
FRT_DECLARE_REAL(__wcscpy_chk);
FRT_DECLARE_REAL(__wcpcpy_chk);
FRT_DECLARE_REAL(__wcsncpy_chk);
FRT_DECLARE_REAL(__wcpncpy_chk);
FRT_DECLARE_REAL(__wcscat_chk);
FRT_DECLARE_REAL(__wcsncat_chk);

// The accesses of one call: a library call that also copies.
class Call : public LibraryCall {
  public:
    using LibraryCall::LibraryCall;
    void copied(void* d, const void* s, u64 n) {
        bytes(s, n, false);
        bytes(d, n, true);
    }
    // strcpy & co.: the source up to its terminator read and the copy written.
    template <class Char> void string_copied(Char* d, const Char* s) {
        copied(d, s, string_extent(s) * sizeof(Char));
    }
    // strncpy & co.: the source read up to n, n characters written (padded).
    template <class Char> void bounded_copied(Char* d, const Char* s, u64 n) {
        bytes(s, string_extent(s, n) * sizeof(Char), false);
        bytes(d, n * sizeof(Char), true);
    }
};

// strcat & co.: the destination's string read, the source read up to max, the appended
// characters and the terminator written.
template <class Char> void appended(u64 pc, Char* d, const Char* s, u64 max) {
    if (Call c(pc); c) {
        const u64 dn = string_length(d);
        const u64 n = string_length(s, max);
        c.bytes(d, dn * sizeof(Char), false);
        c.bytes(s, string_extent(s, max) * sizeof(Char), false);
        c.bytes(d + dn, (n + 1) * sizeof(Char), true);
    }
}

} // namespace

FRT_EXPORT void* __memcpy_chk(void* d, const void* s, size_t n, size_t size) {
    if (Call c(FRT_CALLER()); c) c.copied(d, s, n);
    return REAL(__memcpy_chk)(d, s, n, size);
}
FRT_EXPORT void* __memmove_chk(void* d, const void* s, size_t n, size_t size) {
    if (Call c(FRT_CALLER()); c) c.copied(d, s, n);
    return REAL(__memmove_chk)(d, s, n, size);
}
FRT_EXPORT void* __mempcpy_chk(void* d, const void* s, size_t n, size_t size) {
    if (Call c(FRT_CALLER()); c) c.copied(d, s, n);
    return REAL(__mempcpy_chk)(d, s, n, size);
}
FRT_EXPORT void* __memset_chk(void* d, int v, size_t n, size_t size) {
    if (Call c(FRT_CALLER()); c) c.bytes(d, n, true);
    return REAL(__memset_chk)(d, v, n, size);
}
FRT_EXPORT char* __strcpy_chk(char* d, const char* s, size_t size) {
    if (Call c(FRT_CALLER()); c) c.string_copied(d, s);
    return REAL(__strcpy_chk)(d, s, size);
}
FRT_EXPORT char* __stpcpy_chk(char* d, const char* s, size_t size) {
    if (Call c(FRT_CALLER()); c) c.string_copied(d, s);
    return REAL(__stpcpy_chk)(d, s, size);
}
FRT_EXPORT char* __strncpy_chk(char* d, const char* s, size_t n, size_t size) {
    if (Call c(FRT_CALLER()); c) c.bounded_copied(d, s, n);
    return REAL(__strncpy_chk)(d, s, n, size);
}
FRT_EXPORT char* __strcat_chk(char* d, const char* s, size_t size) {
    appended(FRT_CALLER(), d, s, ~0ull);
    return REAL(__strcat_chk)(d, s, size);
}
FRT_EXPORT char* __strncat_chk(char* d, const char* s, size_t n, size_t size) {
    appended(FRT_CALLER(), d, s, n);
    return REAL(__strncat_chk)(d, s, n, size);
}
FRT_EXPORT char* __fgets_chk(char* s, size_t size, int n, FILE* f) {
    StreamInput input(FRT_CALLER(), f);
    stream_used(FRT_CALLER(), f);
    char* r = REAL(__fgets_chk)(s, size, n, f);
    if (r != nullptr)
        if (Call c(FRT_CALLER()); c) c.text(s, true);
    return r;
}
FRT_EXPORT size_t __fread_chk(void* p, size_t size_of_p, size_t size, size_t n, FILE* f) {
    StreamInput input(FRT_CALLER(), f);
    stream_used(FRT_CALLER(), f);
    const size_t r = REAL(__fread_chk)(p, size_of_p, size, n, f);
    if (Call c(FRT_CALLER()); c) c.bytes(p, r * size, true);
    return r;
}
FRT_EXPORT char* __getcwd_chk(char* buf, size_t n, size_t size) {
    char* r = REAL(__getcwd_chk)(buf, n, size);
    if (r != nullptr && r == buf)
        if (Call c(FRT_CALLER()); c) c.text(buf, true);
    return r;
}
FRT_EXPORT char* __realpath_chk(const char* path, char* resolved, size_t size) {
    if (Call c(FRT_CALLER()); c) c.text(path, false);
    char* r = REAL(__realpath_chk)(path, resolved, size);
    if (r != nullptr)
        if (Call c(FRT_CALLER()); c) c.text(r, true);
    return r;
}
FRT_EXPORT ssize_t __readlink_chk(const char* path, char* buf, size_t n, size_t size) {
    if (Call c(FRT_CALLER()); c) c.text(path, false);
    const ssize_t r = REAL(__readlink_chk)(path, buf, n, size);
    if (r > 0)
        if (Call c(FRT_CALLER()); c) c.bytes(buf, static_cast<u64>(r), true);
    return r;
}

// --- wide characters ------------------------------------------------------------------------

FRT_EXPORT wchar_t* __wmemcpy_chk(wchar_t* d, const wchar_t* s, size_t n, size_t size) {
    if (Call c(FRT_CALLER()); c) c.copied(d, s, n * sizeof(wchar_t));
    return REAL(__wmemcpy_chk)(d, s, n, size);
}
FRT_EXPORT wchar_t* __wmemmove_chk(wchar_t* d, const wchar_t* s, size_t n, size_t size) {
    if (Call c(FRT_CALLER()); c) c.copied(d, s, n * sizeof(wchar_t));
    return REAL(__wmemmove_chk)(d, s, n, size);
}
FRT_EXPORT wchar_t* __wmempcpy_chk(wchar_t* d, const wchar_t* s, size_t n, size_t size) {
    if (Call c(FRT_CALLER()); c) c.copied(d, s, n * sizeof(wchar_t));
    return REAL(__wmempcpy_chk)(d, s, n, size);
}
FRT_EXPORT wchar_t* __wmemset_chk(wchar_t* d, wchar_t v, size_t n, size_t size) {
    if (Call c(FRT_CALLER()); c) c.bytes(d, n * sizeof(wchar_t), true);
    return REAL(__wmemset_chk)(d, v, n, size);
}
FRT_EXPORT wchar_t* __wcscpy_chk(wchar_t* d, const wchar_t* s, size_t size) {
    if (Call c(FRT_CALLER()); c) c.string_copied(d, s);
    return REAL(__wcscpy_chk)(d, s, size);
}
FRT_EXPORT wchar_t* __wcpcpy_chk(wchar_t* d, const wchar_t* s, size_t size) {
    if (Call c(FRT_CALLER()); c) c.string_copied(d, s);
    return REAL(__wcpcpy_chk)(d, s, size);
}
FRT_EXPORT wchar_t* __wcsncpy_chk(wchar_t* d, const wchar_t* s, size_t n, size_t size) {
    if (Call c(FRT_CALLER()); c) c.bounded_copied(d, s, n);
    return REAL(__wcsncpy_chk)(d, s, n, size);
}
FRT_EXPORT wchar_t* __wcpncpy_chk(wchar_t* d, const wchar_t* s, size_t n, size_t size) {
    if (Call c(FRT_CALLER()); c) c.bounded_copied(d, s, n);
    return REAL(__wcpncpy_chk)(d, s, n, size);
}
FRT_EXPORT wchar_t* __wcscat_chk(wchar_t* d, const wchar_t* s, size_t size) {
    appended(FRT_CALLER(), d, s, ~0ull);
    return REAL(__wcscat_chk)(d, s, size);
}
FRT_EXPORT wchar_t* __wcsncat_chk(wchar_t* d, const wchar_t* s, size_t n, size_t size) {
    appended(FRT_CALLER(), d, s, n);
    return REAL(__wcsncat_chk)(d, s, n, size);
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(__memcpy_chk)
FRT_INTERCEPTOR_ALIAS(__memmove_chk)
FRT_INTERCEPTOR_ALIAS(__mempcpy_chk)
FRT_INTERCEPTOR_ALIAS(__memset_chk)
FRT_INTERCEPTOR_ALIAS(__strcpy_chk)
FRT_INTERCEPTOR_ALIAS(__stpcpy_chk)
FRT_INTERCEPTOR_ALIAS(__strncpy_chk)
FRT_INTERCEPTOR_ALIAS(__strcat_chk)
FRT_INTERCEPTOR_ALIAS(__strncat_chk)
FRT_INTERCEPTOR_ALIAS(__fgets_chk)
FRT_INTERCEPTOR_ALIAS(__fread_chk)
FRT_INTERCEPTOR_ALIAS(__getcwd_chk)
FRT_INTERCEPTOR_ALIAS(__realpath_chk)
FRT_INTERCEPTOR_ALIAS(__readlink_chk)
FRT_INTERCEPTOR_ALIAS(__wmemcpy_chk)
FRT_INTERCEPTOR_ALIAS(__wmemmove_chk)
FRT_INTERCEPTOR_ALIAS(__wmempcpy_chk)
FRT_INTERCEPTOR_ALIAS(__wmemset_chk)
FRT_INTERCEPTOR_ALIAS(__wcscpy_chk)
FRT_INTERCEPTOR_ALIAS(__wcpcpy_chk)
FRT_INTERCEPTOR_ALIAS(__wcsncpy_chk)
FRT_INTERCEPTOR_ALIAS(__wcpncpy_chk)
FRT_INTERCEPTOR_ALIAS(__wcscat_chk)
FRT_INTERCEPTOR_ALIAS(__wcsncat_chk)
