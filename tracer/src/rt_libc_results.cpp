// C library calls that store their results into the program's memory through pointer
// arguments, or parse the program's strings: the bytes they write and read are accesses at the
// caller's program counter, as if the call were instrumented code (as ThreadSanitizer's
// common interceptors record them).
//
//   time, clock_gettime, gettimeofday     write the time they return (time: *t when given).
//   localtime_r, gmtime_r                 read *t, write the struct tm.
//   ctime_r, asctime_r                    read the time / struct tm, write the text.
//   stat, lstat, fstat, fstatat           read the path, write the struct stat (on success).
//   rand_r                                read and write the seed (a shared seed races).
//   getcwd                                writes the path it stores (with its terminator).
//   strtol & co., strtod & co.            read the characters parsed and the one that ended
//                                         the parse; write *endptr when given.
// Only from threads the runtime already knows, never from inside the runtime, and not the
// OpenMP runtime's calls on its own data.
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_stdio.hpp"

using namespace frt;

namespace {

void accessed(u64 pc, const void* addr, u64 size, bool write) {
    if (addr == nullptr) return;
    // (not the runtime's own calls, nor the OpenMP runtime's on its own data)
    if (InterceptorScope scope(from_runtime(pc) || in_openmp_runtime(pc) ? nullptr
                                                                         : enter_attached());
        scope)
        library_access(scope.thread(), pc, addr, size, write);
}

u64 text_length(const char* s) {
    u64 n = 0;
    while (s[n] != 0)
        ++n;
    return n;
}

// A parse of s that stopped at end (end == s: nothing parsed, the first byte examined).
template <class Char> void parsed(u64 pc, const char* s, Char* end, Char** endptr) {
    accessed(pc, s, static_cast<u64>(end - s) + 1, false);
    if (endptr != nullptr) accessed(pc, endptr, sizeof *endptr, true);
}

FRT_DECLARE_REAL(time);
FRT_DECLARE_REAL(clock_gettime);
using gettimeofday_fn = int (*)(struct timeval*, void*);
FRT_DECLARE_REAL_TYPED(gettimeofday, gettimeofday_fn);
FRT_DECLARE_REAL(localtime_r);
FRT_DECLARE_REAL(gmtime_r);
FRT_DECLARE_REAL(ctime_r);
FRT_DECLARE_REAL(asctime_r);
FRT_DECLARE_REAL(stat);
FRT_DECLARE_REAL(lstat);
FRT_DECLARE_REAL(fstat);
FRT_DECLARE_REAL(fstatat);
FRT_DECLARE_REAL(rand_r);
FRT_DECLARE_REAL(getcwd);
FRT_DECLARE_REAL(strtol);
FRT_DECLARE_REAL(strtoul);
FRT_DECLARE_REAL(strtoll);
FRT_DECLARE_REAL(strtoull);
FRT_DECLARE_REAL(strtod);
FRT_DECLARE_REAL(strtof);

} // namespace

FRT_EXPORT time_t time(time_t* t) {
    const time_t r = REAL(time)(t);
    if (t != nullptr) accessed(FRT_CALLER(), t, sizeof *t, true);
    return r;
}
FRT_EXPORT int clock_gettime(clockid_t clock, struct timespec* ts) {
    const int r = REAL(clock_gettime)(clock, ts);
    if (r == 0) accessed(FRT_CALLER(), ts, sizeof *ts, true);
    return r;
}
FRT_EXPORT int gettimeofday(struct timeval* tv, void* tz) {
    const int r = REAL(gettimeofday)(tv, tz);
    if (r == 0) accessed(FRT_CALLER(), tv, sizeof *tv, true);
    return r;
}
FRT_EXPORT struct tm* localtime_r(const time_t* t, struct tm* out) {
    accessed(FRT_CALLER(), t, sizeof *t, false);
    struct tm* r;
    {
        ProgramAllocations program(FRT_CALLER()); // tzset's blocks (rt_stdio.hpp)
        r = REAL(localtime_r)(t, out);
    }
    if (r != nullptr) accessed(FRT_CALLER(), out, sizeof *out, true);
    return r;
}
FRT_EXPORT struct tm* gmtime_r(const time_t* t, struct tm* out) {
    accessed(FRT_CALLER(), t, sizeof *t, false);
    struct tm* r = REAL(gmtime_r)(t, out);
    if (r != nullptr) accessed(FRT_CALLER(), out, sizeof *out, true);
    return r;
}
FRT_EXPORT char* ctime_r(const time_t* t, char* buf) {
    accessed(FRT_CALLER(), t, sizeof *t, false);
    char* r;
    {
        ProgramAllocations program(FRT_CALLER());
        r = REAL(ctime_r)(t, buf);
    }
    if (r != nullptr) accessed(FRT_CALLER(), buf, text_length(buf) + 1, true);
    return r;
}
FRT_EXPORT char* asctime_r(const struct tm* tm, char* buf) {
    accessed(FRT_CALLER(), tm, sizeof *tm, false);
    char* r = REAL(asctime_r)(tm, buf);
    if (r != nullptr) accessed(FRT_CALLER(), buf, text_length(buf) + 1, true);
    return r;
}
FRT_EXPORT int stat(const char* path, struct stat* st) {
    accessed(FRT_CALLER(), path, text_length(path) + 1, false);
    const int r = REAL(stat)(path, st);
    if (r == 0) accessed(FRT_CALLER(), st, sizeof *st, true);
    return r;
}
FRT_EXPORT int lstat(const char* path, struct stat* st) {
    accessed(FRT_CALLER(), path, text_length(path) + 1, false);
    const int r = REAL(lstat)(path, st);
    if (r == 0) accessed(FRT_CALLER(), st, sizeof *st, true);
    return r;
}
FRT_EXPORT int fstat(int fd, struct stat* st) {
    const int r = REAL(fstat)(fd, st);
    if (r == 0) accessed(FRT_CALLER(), st, sizeof *st, true);
    return r;
}
FRT_EXPORT int fstatat(int dir, const char* path, struct stat* st, int flags) {
    accessed(FRT_CALLER(), path, text_length(path) + 1, false);
    const int r = REAL(fstatat)(dir, path, st, flags);
    if (r == 0) accessed(FRT_CALLER(), st, sizeof *st, true);
    return r;
}
FRT_EXPORT int rand_r(unsigned* seed) {
    accessed(FRT_CALLER(), seed, sizeof *seed, false);
    const int r = REAL(rand_r)(seed);
    accessed(FRT_CALLER(), seed, sizeof *seed, true);
    return r;
}
FRT_EXPORT char* getcwd(char* buf, size_t size) {
    char* r = REAL(getcwd)(buf, size);
    if (r != nullptr && r == buf) accessed(FRT_CALLER(), buf, text_length(buf) + 1, true);
    return r;
}
FRT_EXPORT long strtol(const char* s, char** endptr, int base) {
    char* end;
    const long r = REAL(strtol)(s, &end, base);
    parsed(FRT_CALLER(), s, end, endptr);
    if (endptr != nullptr) *endptr = end;
    return r;
}
FRT_EXPORT unsigned long strtoul(const char* s, char** endptr, int base) {
    char* end;
    const unsigned long r = REAL(strtoul)(s, &end, base);
    parsed(FRT_CALLER(), s, end, endptr);
    if (endptr != nullptr) *endptr = end;
    return r;
}
FRT_EXPORT long long strtoll(const char* s, char** endptr, int base) {
    char* end;
    const long long r = REAL(strtoll)(s, &end, base);
    parsed(FRT_CALLER(), s, end, endptr);
    if (endptr != nullptr) *endptr = end;
    return r;
}
FRT_EXPORT unsigned long long strtoull(const char* s, char** endptr, int base) {
    char* end;
    const unsigned long long r = REAL(strtoull)(s, &end, base);
    parsed(FRT_CALLER(), s, end, endptr);
    if (endptr != nullptr) *endptr = end;
    return r;
}
FRT_EXPORT double strtod(const char* s, char** endptr) {
    char* end;
    const double r = REAL(strtod)(s, &end);
    parsed(FRT_CALLER(), s, end, endptr);
    if (endptr != nullptr) *endptr = end;
    return r;
}
FRT_EXPORT float strtof(const char* s, char** endptr) {
    char* end;
    const float r = REAL(strtof)(s, &end);
    parsed(FRT_CALLER(), s, end, endptr);
    if (endptr != nullptr) *endptr = end;
    return r;
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(time)
FRT_INTERCEPTOR_ALIAS(clock_gettime)
FRT_INTERCEPTOR_ALIAS(gettimeofday)
FRT_INTERCEPTOR_ALIAS(localtime_r)
FRT_INTERCEPTOR_ALIAS(gmtime_r)
FRT_INTERCEPTOR_ALIAS(ctime_r)
FRT_INTERCEPTOR_ALIAS(asctime_r)
FRT_INTERCEPTOR_ALIAS(stat)
FRT_INTERCEPTOR_ALIAS(lstat)
FRT_INTERCEPTOR_ALIAS(fstat)
FRT_INTERCEPTOR_ALIAS(fstatat)
FRT_INTERCEPTOR_ALIAS(rand_r)
FRT_INTERCEPTOR_ALIAS(getcwd)
FRT_INTERCEPTOR_ALIAS(strtol)
FRT_INTERCEPTOR_ALIAS(strtoul)
FRT_INTERCEPTOR_ALIAS(strtoll)
FRT_INTERCEPTOR_ALIAS(strtoull)
FRT_INTERCEPTOR_ALIAS(strtod)
FRT_INTERCEPTOR_ALIAS(strtof)
