// C library calls whose results or state live in memory the library owns and shares: what
// POSIX lets them keep there makes concurrent calls from two threads a race, and the program's
// own reads of a result race with the next call that overwrites it.
//
//   localtime, gmtime        write their result into one static struct tm (glibc: the same one
//                            for both) and return it; read *t. Two threads calling them race
//                            (POSIX: need not be thread-safe; the _r forms, rt_libc_results.cpp,
//                            write the caller's struct).
//   ctime, asctime           asctime writes its static text buffer (the characters and the
//                            terminator); ctime is asctime(localtime(t)): both buffers.
//   strtok                   keeps where it stopped in a static pointer: each call writes it (a
//                            byte standing for it, `firstrace_strtok_state`, so that two
//                            threads tokenizing different strings race, as POSIX says;
//                            strtok_r keeps it in the caller's pointer). Reads the token and
//                            the delimiters, writes the terminator it stores.
//   getenv, setenv & co.     the environment: getenv/secure_getenv read the `environ` pointer
//                            (the program may read it itself), setenv/unsetenv/putenv/clearenv
//                            write it (POSIX: not thread-safe; glibc's getenv takes no lock).
//                            getenv also reads the entry it found (name=value: a string given
//                            to putenv is the entry, and the program may change it), setenv,
//                            unsetenv and putenv read the strings they are given.
//   readdir, readdir64       the entry returned lives in the DIR stream's buffer and the next
//                            readdir on that stream overwrites it: a plain write of the stream
//                            (its first byte) and of the entry (d_reclen bytes). Calls on
//                            different streams do not race; on one stream from two threads
//                            without the program's lock they do (POSIX: readdir need not be
//                            thread-safe on one stream), and so does a thread's read of an entry
//                            with another thread's next readdir.
//   readdir_r, readdir64_r   thread-safe on one stream: an atomic read-write of the stream's
//                            first byte (as a locked stdio call), a write of *entry and *result.
//   opendir, closedir        the descriptor the kernel hands out / the close (rt_fd.cpp);
//                            closedir is a plain write of the stream (races with a readdir that
//                            nothing orders before it); glibc allocates and frees the stream
//                            inside: the program's call (tls_library_call_pc, rt_stdio.hpp).
//   tmpnam, ttyname, getlogin, ptsname
//                            tmpnam(NULL), ttyname, getlogin and ptsname return a static
//                            buffer: a write of the text stored there (two threads' calls
//                            race: XSH 2.9.1 lists them); tmpnam(buf), ttyname_r, getlogin_r and
//                            ptsname_r write the caller's buffer,
//                            tempnam a block it allocates (the program's allocation).
//   getaddrinfo              reads the node and service names and *hints, writes *res and the
//                            whole result list (each addrinfo, its address and canonical name):
//                            a thread that gets the list through a racy publication races with
//                            the call. freeaddrinfo frees the list (writes of the blocks), both
//                            attributed to the program's call. What glibc allocates and frees
//                            inside getaddrinfo is its own (rt_library_own_blocks.hpp).
// Only from threads the runtime already knows, never from inside the runtime.
#include <dirent.h>
#include <netdb.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rt_fd.hpp"
#include "rt_library_call.hpp"
#include "rt_library_own_blocks.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_stdio.hpp"

using namespace frt;
namespace fmt = firstrace::format;

// strtok's saved position: glibc's is a static of its own; this byte stands for it in reports.
extern "C" __attribute__((visibility("default"))) unsigned char firstrace_strtok_state;
unsigned char firstrace_strtok_state;

namespace {

void accessed(u64 pc, const void* p, u64 size, bool write) {
    if (p == nullptr || size == 0) return;
    if (InterceptorScope scope(program_call(pc)); scope)
        library_access(scope.thread(), pc, p, size, write);
}

void stream_used_atomically(u64 pc, const void* p) {
    if (p == nullptr) return;
    if (InterceptorScope scope(program_call(pc)); scope)
        add_access_slow(scope.thread(), pc, reinterpret_cast<u64>(p), 1,
                        fmt::kAtomic | fmt::kRead | fmt::kWrite);
}

FRT_DECLARE_REAL(localtime);
FRT_DECLARE_REAL(gmtime);
FRT_DECLARE_REAL(ctime);
FRT_DECLARE_REAL(asctime);
FRT_DECLARE_REAL(strtok);
FRT_DECLARE_REAL(getenv);
FRT_DECLARE_REAL(secure_getenv);
FRT_DECLARE_REAL(setenv);
FRT_DECLARE_REAL(unsetenv);
FRT_DECLARE_REAL(putenv);
FRT_DECLARE_REAL(clearenv);
FRT_DECLARE_REAL(opendir);
FRT_DECLARE_REAL(fdopendir);
FRT_DECLARE_REAL(closedir);
FRT_DECLARE_REAL(readdir);
FRT_DECLARE_REAL(readdir64);
// (deprecated by glibc in favour of readdir, which is thread-safe across streams; still used)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
FRT_DECLARE_REAL(readdir_r);
FRT_DECLARE_REAL(readdir64_r);
#pragma GCC diagnostic pop
FRT_DECLARE_REAL(getaddrinfo);
FRT_DECLARE_REAL(freeaddrinfo);
FRT_DECLARE_REAL(tmpnam);
FRT_DECLARE_REAL(tempnam);
FRT_DECLARE_REAL(ttyname);
FRT_DECLARE_REAL(ttyname_r);
FRT_DECLARE_REAL(getlogin);
FRT_DECLARE_REAL(getlogin_r);
FRT_DECLARE_REAL(ptsname);
FRT_DECLARE_REAL(ptsname_r);

// localtime & co. read the time zone (tzset: glibc opens, reads and closes /etc/localtime
// inside, allocating and freeing): those blocks are the program's call, as for fclose.
template <class Real, class... Args> auto converting(u64 pc, Real real, Args... args) {
    ProgramAllocations program(pc);
    return real(args...);
}

struct tm* time_converted(u64 pc, const time_t* t, struct tm* r) {
    accessed(pc, t, sizeof *t, false);
    accessed(pc, r, sizeof *r, true);
    return r;
}
char* text_written(u64 pc, char* r) {
    if (r != nullptr) accessed(pc, r, string_length(r) + 1, true);
    return r;
}

template <class Entry> Entry* entry_read(u64 pc, DIR* d, Entry* e) {
    accessed(pc, d, 1, true);
    if (e != nullptr) accessed(pc, e, e->d_reclen, true);
    return e;
}
template <class Entry> int entry_read_r(u64 pc, int r, Entry* entry, Entry** result) {
    if (r == 0) {
        accessed(pc, result, sizeof(Entry*), true);
        if (*result != nullptr) accessed(pc, entry, (*result)->d_reclen, true);
    }
    return r;
}

} // namespace

// --- static result buffers
// ------------------------------------------------------------------------

FRT_EXPORT struct tm* localtime(const time_t* t) {
    return time_converted(FRT_CALLER(), t, converting(FRT_CALLER(), REAL(localtime), t));
}
FRT_EXPORT struct tm* gmtime(const time_t* t) {
    return time_converted(FRT_CALLER(), t, converting(FRT_CALLER(), REAL(gmtime), t));
}
FRT_EXPORT char* asctime(const struct tm* tm) {
    accessed(FRT_CALLER(), tm, sizeof *tm, false);
    return text_written(FRT_CALLER(), REAL(asctime)(tm));
}
FRT_EXPORT char* ctime(const time_t* t) {
    const u64 pc = FRT_CALLER();
    // glibc: asctime(localtime(t)), through its own static struct tm
    time_converted(pc, t, converting(pc, REAL(localtime), t));
    return text_written(pc, converting(pc, REAL(ctime), t));
}

FRT_EXPORT char* strtok(char* s, const char* delim) {
    const u64 pc = FRT_CALLER();
    accessed(pc, delim, string_length(delim) + 1, false);
    char* r = REAL(strtok)(s, delim);
    accessed(pc, &firstrace_strtok_state, 1, true);
    if (r != nullptr) {
        const u64 n = string_length(r);
        accessed(pc, r, n + 1, false);
        accessed(pc, r + n, 1, true); // the terminator stored over the delimiter (or the end)
    }
    return r;
}

// --- the environment
// ------------------------------------------------------------------------------

// getenv before its real function is known (a call reached from inside dlsym): the lookup itself.
static char* environment_lookup(const char* name) {
    const u64 n = string_length(name);
    for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
        u64 i = 0;
        while (i < n && (*e)[i] == name[i])
            ++i;
        if (i == n && (*e)[n] == '=') return *e + n + 1;
    }
    return nullptr;
}
namespace {
// The text at s read by the call made at pc (s may be null although declared nonnull).
void text_read(u64 pc, const char* s) {
    __asm__("" : "+r"(s));
    if (s != nullptr) accessed(pc, s, string_length(s) + 1, false);
}
// The entry a lookup of name at pc found (value r): its text, name=value, was read; a string
// the program gave putenv is the entry itself, and the program may change it (eighteenth
// session: before, only `environ` was read, so such a change raced with nothing).
char* entry_found(u64 pc, const char* name, char* r) {
    if (r != nullptr && name != nullptr) {
        const u64 n = string_length(name);
        accessed(pc, r - n - 1, n + 1 + string_length(r) + 1, false);
    }
    return r;
}
} // namespace
FRT_EXPORT char* getenv(const char* name) {
    accessed(FRT_CALLER(), &environ, sizeof environ, false);
    if (auto real = REAL(getenv)) return entry_found(FRT_CALLER(), name, real(name));
    return environment_lookup(name);
}
FRT_EXPORT char* secure_getenv(const char* name) {
    accessed(FRT_CALLER(), &environ, sizeof environ, false);
    return entry_found(FRT_CALLER(), name, REAL(secure_getenv)(name));
}
FRT_EXPORT int setenv(const char* name, const char* value, int overwrite) {
    text_read(FRT_CALLER(), name);
    text_read(FRT_CALLER(), value);
    accessed(FRT_CALLER(), &environ, sizeof environ, true);
    return REAL(setenv)(name, value, overwrite);
}
FRT_EXPORT int unsetenv(const char* name) {
    text_read(FRT_CALLER(), name);
    accessed(FRT_CALLER(), &environ, sizeof environ, true);
    return REAL(unsetenv)(name);
}
FRT_EXPORT int putenv(char* string) {
    text_read(FRT_CALLER(), string);
    accessed(FRT_CALLER(), &environ, sizeof environ, true);
    return REAL(putenv)(string);
}
FRT_EXPORT int clearenv() {
    accessed(FRT_CALLER(), &environ, sizeof environ, true);
    return REAL(clearenv)();
}

// --- directory streams
// ----------------------------------------------------------------------------

FRT_EXPORT DIR* opendir(const char* path) {
    const u64 pc = FRT_CALLER();
    DIR* d;
    {
        ProgramAllocations program(pc);
        d = REAL(opendir)(path);
    }
    if (d != nullptr && !from_runtime(pc)) fd::created(dirfd(d), pc);
    return d;
}
FRT_EXPORT DIR* fdopendir(int fd) {
    const u64 pc = FRT_CALLER();
    ProgramAllocations program(pc);
    return REAL(fdopendir)(fd);
}
FRT_EXPORT int closedir(DIR* d) {
    const u64 pc = FRT_CALLER();
    const void* stream = d; // (closedir(NULL) fails with EINVAL; d is declared nonnull)
    if (stream != nullptr && !from_runtime(pc)) {
        accessed(pc, d, 1, true);
        fd::retired(dirfd(d), pc);
    }
    ProgramAllocations program(pc);
    return REAL(closedir)(d);
}
FRT_EXPORT struct dirent* readdir(DIR* d) {
    return entry_read(FRT_CALLER(), d, REAL(readdir)(d));
}
FRT_EXPORT struct dirent64* readdir64(DIR* d) {
    return entry_read(FRT_CALLER(), d, REAL(readdir64)(d));
}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
FRT_EXPORT int readdir_r(DIR* d, struct dirent* entry, struct dirent** result) {
    stream_used_atomically(FRT_CALLER(), d);
    return entry_read_r(FRT_CALLER(), REAL(readdir_r)(d, entry, result), entry, result);
}
FRT_EXPORT int readdir64_r(DIR* d, struct dirent64* entry, struct dirent64** result) {
    stream_used_atomically(FRT_CALLER(), d);
    return entry_read_r(FRT_CALLER(), REAL(readdir64_r)(d, entry, result), entry, result);
}
#pragma GCC diagnostic pop

// --- name resolution
// ------------------------------------------------------------------------------

FRT_EXPORT int getaddrinfo(const char* node, const char* service, const struct addrinfo* hints,
                           struct addrinfo** res) {
    const u64 pc = FRT_CALLER();
    if (node != nullptr) accessed(pc, node, string_length(node) + 1, false);
    if (service != nullptr) accessed(pc, service, string_length(service) + 1, false);
    accessed(pc, hints, sizeof *hints, false);
    int r;
    {
        LibraryOwnBlocks library(pc); // its caches, freed by any thread (rt_library_own_blocks.hpp)
        r = REAL(getaddrinfo)(node, service, hints, res);
    }
    if (r == 0) {
        accessed(pc, res, sizeof(struct addrinfo*), true);
        for (const struct addrinfo* a = *res; a != nullptr; a = a->ai_next) {
            accessed(pc, a, sizeof *a, true);
            accessed(pc, a->ai_addr, a->ai_addrlen, true);
            if (a->ai_canonname != nullptr)
                accessed(pc, a->ai_canonname, string_length(a->ai_canonname) + 1, true);
        }
    }
    return r;
}
FRT_EXPORT void freeaddrinfo(struct addrinfo* list) {
    ProgramAllocations program(FRT_CALLER());
    REAL(freeaddrinfo)(list);
}

// --- names in static buffers
// ----------------------------------------------------------------------------

FRT_EXPORT char* tmpnam(char* buf) {
    return text_written(FRT_CALLER(), REAL(tmpnam)(buf));
}
FRT_EXPORT char* tempnam(const char* dir, const char* prefix) {
    const u64 pc = FRT_CALLER();
    if (dir != nullptr) accessed(pc, dir, string_length(dir) + 1, false);
    if (prefix != nullptr) accessed(pc, prefix, string_length(prefix) + 1, false);
    return text_written(pc, converting(pc, REAL(tempnam), dir, prefix));
}
FRT_EXPORT char* ttyname(int fd) {
    return text_written(FRT_CALLER(), REAL(ttyname)(fd));
}
FRT_EXPORT int ttyname_r(int fd, char* buf, size_t n) {
    const int r = REAL(ttyname_r)(fd, buf, n);
    if (r == 0) text_written(FRT_CALLER(), buf);
    return r;
}
FRT_EXPORT char* ptsname(int fd) {
    return text_written(FRT_CALLER(), REAL(ptsname)(fd));
}
FRT_EXPORT int ptsname_r(int fd, char* buf, size_t n) {
    const int r = REAL(ptsname_r)(fd, buf, n);
    if (r == 0) text_written(FRT_CALLER(), buf);
    return r;
}
FRT_EXPORT char* getlogin() {
    return text_written(FRT_CALLER(), REAL(getlogin)());
}
FRT_EXPORT int getlogin_r(char* buf, size_t n) {
    const int r = REAL(getlogin_r)(buf, n);
    if (r == 0) text_written(FRT_CALLER(), buf);
    return r;
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(localtime)
FRT_INTERCEPTOR_ALIAS(gmtime)
FRT_INTERCEPTOR_ALIAS(asctime)
FRT_INTERCEPTOR_ALIAS(ctime)
FRT_INTERCEPTOR_ALIAS(strtok)
FRT_INTERCEPTOR_ALIAS(getenv)
FRT_INTERCEPTOR_ALIAS(secure_getenv)
FRT_INTERCEPTOR_ALIAS(setenv)
FRT_INTERCEPTOR_ALIAS(unsetenv)
FRT_INTERCEPTOR_ALIAS(putenv)
FRT_INTERCEPTOR_ALIAS(clearenv)
FRT_INTERCEPTOR_ALIAS(opendir)
FRT_INTERCEPTOR_ALIAS(fdopendir)
FRT_INTERCEPTOR_ALIAS(closedir)
FRT_INTERCEPTOR_ALIAS(readdir)
FRT_INTERCEPTOR_ALIAS(readdir64)
FRT_INTERCEPTOR_ALIAS(readdir_r)
FRT_INTERCEPTOR_ALIAS(readdir64_r)
FRT_INTERCEPTOR_ALIAS(getaddrinfo)
FRT_INTERCEPTOR_ALIAS(freeaddrinfo)
FRT_INTERCEPTOR_ALIAS(tmpnam)
FRT_INTERCEPTOR_ALIAS(tempnam)
FRT_INTERCEPTOR_ALIAS(ttyname)
FRT_INTERCEPTOR_ALIAS(ptsname)
FRT_INTERCEPTOR_ALIAS(ptsname_r)
FRT_INTERCEPTOR_ALIAS(ttyname_r)
FRT_INTERCEPTOR_ALIAS(getlogin)
FRT_INTERCEPTOR_ALIAS(getlogin_r)

// ctermid and getpass (eighteenth session): a static buffer too. ctermid(NULL) stores the
// terminal's name in one (XSH 2.9.1 lists ctermid with a null argument), ctermid(s) into s;
// glibc's getpass (withdrawn from POSIX) reads the line into a static buffer it keeps: a write
// of the text returned, as tmpnam and ttyname.
namespace {
FRT_DECLARE_REAL(ctermid);
FRT_DECLARE_REAL(getpass);
} // namespace

FRT_EXPORT char* ctermid(char* s) {
    return text_written(FRT_CALLER(), REAL(ctermid)(s));
}
FRT_EXPORT char* getpass(const char* prompt) {
    const u64 pc = FRT_CALLER();
    const char* text = prompt;
    __asm__("" : "+r"(text)); // declared nonnull; the program may pass null all the same
    if (text != nullptr) accessed(pc, text, string_length(text) + 1, false);
    char* r;
    {
        ProgramAllocations program(pc); // the buffer's (re)allocation
        r = REAL(getpass)(prompt);
    }
    return text_written(pc, r);
}
FRT_INTERCEPTOR_ALIAS(ctermid)
FRT_INTERCEPTOR_ALIAS(getpass)
