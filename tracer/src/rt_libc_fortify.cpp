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
// Only from threads the runtime already knows, never from inside the runtime.
#include <stdio.h>
#include <string.h>

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

// The accesses of one call: a library call that also copies.
class Call : public LibraryCall {
  public:
    using LibraryCall::LibraryCall;
    void copied(void* d, const void* s, u64 n) {
        bytes(s, n, false);
        bytes(d, n, true);
    }
};

// strcat & co.: the destination's string read, the source read up to max, the appended
// characters and the terminator written.
void appended(u64 pc, char* d, const char* s, u64 max) {
    if (Call c(pc); c) {
        const u64 dn = string_length(d);
        const u64 n = string_length(s, max);
        c.bytes(d, dn, false);
        c.bytes(s, string_extent(s, max), false);
        c.bytes(d + dn, n + 1, true);
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
    if (Call c(FRT_CALLER()); c) c.copied(d, s, string_extent(s));
    return REAL(__strcpy_chk)(d, s, size);
}
FRT_EXPORT char* __stpcpy_chk(char* d, const char* s, size_t size) {
    if (Call c(FRT_CALLER()); c) c.copied(d, s, string_extent(s));
    return REAL(__stpcpy_chk)(d, s, size);
}
FRT_EXPORT char* __strncpy_chk(char* d, const char* s, size_t n, size_t size) {
    if (Call c(FRT_CALLER()); c) {
        c.bytes(s, string_extent(s, n), false);
        c.bytes(d, n, true);
    }
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
    stream_used(FRT_CALLER(), f);
    char* r = REAL(__fgets_chk)(s, size, n, f);
    if (r != nullptr)
        if (Call c(FRT_CALLER()); c) c.text(s, true);
    return r;
}
FRT_EXPORT size_t __fread_chk(void* p, size_t size_of_p, size_t size, size_t n, FILE* f) {
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
