// C library calls that store their results into the program's memory through pointer
// arguments, or parse the program's strings: the bytes they write and read are accesses at the
// caller's program counter, as if the call were instrumented code (as ThreadSanitizer's
// common interceptors record them).
//
//   time, clock_gettime, gettimeofday     write the time they return (time: *t when given).
//   localtime_r, gmtime_r                 read *t, write the struct tm.
//   ctime_r, asctime_r                    read the time / struct tm, write the text.
//   stat, lstat, fstat, fstatat           read the path, write the struct stat (on success);
//                                         also the 64-bit names (stat64, ...), statx,
//                                         statfs/fstatfs and statvfs/fstatvfs (and their
//                                         64 names).
//   rand_r                                read and write the seed (a shared seed races).
//   getcwd                                writes the path it stores (with its terminator).
//   strtol & co., strtod & co.            read the characters parsed and the one that ended
//                                         the parse; write *endptr when given (also strtold,
//                                         strtoimax, strtoumax).
//   mktime, timegm                        read and write the struct tm (normalized in place).
//   strftime                              reads the format and the struct tm, writes the text.
//   strptime                              reads the text parsed and the format, writes the
//                                         struct tm.
//   realpath                              reads the path, writes the resolved path (into the
//                                         caller's buffer, or a block it allocates: the
//                                         program's allocation).
//   readlink, readlinkat                  read the path, write the bytes stored.
//   inet_ntop, inet_pton, inet_aton       read the address / text, write the text / address.
//   strerror_r (POSIX), strerror          __xpg_strerror_r (what the POSIX form is in glibc)
//                                         writes the buffer. strerror needs nothing: since
//                                         glibc 2.32 an unknown number's text is in a
//                                         thread-local buffer, a known one is constant.
//   wait, waitpid, wait3, wait4, waitid   write the status / siginfo (and the rusage);
//                                         a terminated child is ordered
//                                         (rt_child_processes.hpp).
//   pthread_getname_np                    writes the name it stores (with its terminator).
//   process_vm_readv, process_vm_writev   of the calling process (its own pid): read the
//                                         source ranges and write the destination ranges
//                                         of the bytes copied (another process's memory is
//                                         not this trace's).
//   nanosleep, clock_nanosleep            read the request, write the remaining time.
//   uname, gethostname, getrandom,        write what they store.
//   getrusage, times, sysinfo
// Only from threads the runtime already knows, never from inside the runtime, and not the
// OpenMP runtime's calls on its own data.
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern "C" int __xpg_strerror_r(int e, char* buf, size_t n);

#include "rt_child_processes.hpp"
#include "rt_library_call.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_stdio.hpp"

using namespace frt;

namespace {

void accessed(u64 pc, const void* addr, u64 size, bool write) {
    if (addr == nullptr) return;
    if (InterceptorScope scope(program_call(pc)); scope)
        library_access(scope.thread(), pc, addr, size, write);
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
FRT_DECLARE_REAL(stat64);
FRT_DECLARE_REAL(lstat64);
FRT_DECLARE_REAL(fstat64);
FRT_DECLARE_REAL(fstatat64);
FRT_DECLARE_REAL(statx);
FRT_DECLARE_REAL(statfs);
FRT_DECLARE_REAL(fstatfs);
FRT_DECLARE_REAL(statvfs);
FRT_DECLARE_REAL(fstatvfs);
FRT_DECLARE_REAL(statfs64);
FRT_DECLARE_REAL(fstatfs64);
FRT_DECLARE_REAL(statvfs64);
FRT_DECLARE_REAL(fstatvfs64);
FRT_DECLARE_REAL(rand_r);
FRT_DECLARE_REAL(getcwd);
FRT_DECLARE_REAL(strtol);
FRT_DECLARE_REAL(strtoul);
FRT_DECLARE_REAL(strtoll);
FRT_DECLARE_REAL(strtoull);
FRT_DECLARE_REAL(strtod);
FRT_DECLARE_REAL(strtof);
FRT_DECLARE_REAL(strtold);
FRT_DECLARE_REAL(strtoimax);
FRT_DECLARE_REAL(strtoumax);
FRT_DECLARE_REAL(mktime);
FRT_DECLARE_REAL(timegm);
FRT_DECLARE_REAL(strftime);
FRT_DECLARE_REAL(strptime);
FRT_DECLARE_REAL(realpath);
FRT_DECLARE_REAL(readlink);
FRT_DECLARE_REAL(readlinkat);
FRT_DECLARE_REAL(inet_ntop);
FRT_DECLARE_REAL(inet_pton);
FRT_DECLARE_REAL(inet_aton);
FRT_DECLARE_REAL(__xpg_strerror_r);
FRT_DECLARE_REAL(wait);
FRT_DECLARE_REAL(waitpid);
FRT_DECLARE_REAL(wait3);
FRT_DECLARE_REAL(wait4);
FRT_DECLARE_REAL(waitid);
FRT_DECLARE_REAL(nanosleep);
FRT_DECLARE_REAL(clock_nanosleep);
FRT_DECLARE_REAL(uname);
FRT_DECLARE_REAL(pthread_getname_np);
FRT_DECLARE_REAL(process_vm_readv);
FRT_DECLARE_REAL(process_vm_writev);
FRT_DECLARE_REAL(gethostname);
FRT_DECLARE_REAL(getrandom);
FRT_DECLARE_REAL(getrusage);
FRT_DECLARE_REAL(times);
FRT_DECLARE_REAL(sysinfo);

// The size of an address of family af (inet_ntop, inet_pton).
u64 address_size(int af) {
    return af == AF_INET6 ? sizeof(struct in6_addr) : sizeof(struct in_addr);
}
// A struct tm normalized in place, with the time zone read (tzset's blocks: the program's).
template <class Real> time_t normalized(u64 pc, struct tm* tm, Real real) {
    accessed(pc, tm, sizeof *tm, false);
    time_t r;
    {
        ProgramAllocations program(pc);
        r = real(tm);
    }
    accessed(pc, tm, sizeof *tm, true);
    return r;
}
// A wait that stored the child's status (r > 0: a child was reaped).
pid_t waited(u64 pc, pid_t r, const int* status) {
    if (r > 0 && status != nullptr) accessed(pc, status, sizeof *status, true);
    child_waited(pc, r, status);
    return r;
}

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
    if (r != nullptr) accessed(FRT_CALLER(), buf, string_length(buf) + 1, true);
    return r;
}
FRT_EXPORT char* asctime_r(const struct tm* tm, char* buf) {
    accessed(FRT_CALLER(), tm, sizeof *tm, false);
    char* r = REAL(asctime_r)(tm, buf);
    if (r != nullptr) accessed(FRT_CALLER(), buf, string_length(buf) + 1, true);
    return r;
}
namespace {
// The status calls: the path read (when there is one), the structure written on success.
template <class Out> int status_stored(u64 pc, const char* path, Out* out, int r) {
    if (path != nullptr) accessed(pc, path, string_length(path) + 1, false);
    if (r == 0) accessed(pc, out, sizeof *out, true);
    return r;
}
} // namespace

FRT_EXPORT int stat(const char* path, struct stat* st) {
    return status_stored(FRT_CALLER(), path, st, REAL(stat)(path, st));
}
FRT_EXPORT int lstat(const char* path, struct stat* st) {
    return status_stored(FRT_CALLER(), path, st, REAL(lstat)(path, st));
}
FRT_EXPORT int fstat(int fd, struct stat* st) {
    return status_stored(FRT_CALLER(), nullptr, st, REAL(fstat)(fd, st));
}
FRT_EXPORT int fstatat(int dir, const char* path, struct stat* st, int flags) {
    return status_stored(FRT_CALLER(), path, st, REAL(fstatat)(dir, path, st, flags));
}
FRT_EXPORT int stat64(const char* path, struct stat64* st) {
    return status_stored(FRT_CALLER(), path, st, REAL(stat64)(path, st));
}
FRT_EXPORT int lstat64(const char* path, struct stat64* st) {
    return status_stored(FRT_CALLER(), path, st, REAL(lstat64)(path, st));
}
FRT_EXPORT int fstat64(int fd, struct stat64* st) {
    return status_stored(FRT_CALLER(), nullptr, st, REAL(fstat64)(fd, st));
}
FRT_EXPORT int fstatat64(int dir, const char* path, struct stat64* st, int flags) {
    return status_stored(FRT_CALLER(), path, st, REAL(fstatat64)(dir, path, st, flags));
}
FRT_EXPORT int statx(int dir, const char* path, int flags, unsigned mask, struct statx* st) {
    return status_stored(FRT_CALLER(), path, st, REAL(statx)(dir, path, flags, mask, st));
}
FRT_EXPORT int statfs(const char* path, struct statfs* st) {
    return status_stored(FRT_CALLER(), path, st, REAL(statfs)(path, st));
}
FRT_EXPORT int fstatfs(int fd, struct statfs* st) {
    return status_stored(FRT_CALLER(), nullptr, st, REAL(fstatfs)(fd, st));
}
FRT_EXPORT int statvfs(const char* path, struct statvfs* st) {
    return status_stored(FRT_CALLER(), path, st, REAL(statvfs)(path, st));
}
FRT_EXPORT int fstatvfs(int fd, struct statvfs* st) {
    return status_stored(FRT_CALLER(), nullptr, st, REAL(fstatvfs)(fd, st));
}
FRT_EXPORT int statfs64(const char* path, struct statfs64* st) {
    return status_stored(FRT_CALLER(), path, st, REAL(statfs64)(path, st));
}
FRT_EXPORT int fstatfs64(int fd, struct statfs64* st) {
    return status_stored(FRT_CALLER(), nullptr, st, REAL(fstatfs64)(fd, st));
}
FRT_EXPORT int statvfs64(const char* path, struct statvfs64* st) {
    return status_stored(FRT_CALLER(), path, st, REAL(statvfs64)(path, st));
}
FRT_EXPORT int fstatvfs64(int fd, struct statvfs64* st) {
    return status_stored(FRT_CALLER(), nullptr, st, REAL(fstatvfs64)(fd, st));
}
FRT_EXPORT int rand_r(unsigned* seed) {
    accessed(FRT_CALLER(), seed, sizeof *seed, false);
    const int r = REAL(rand_r)(seed);
    accessed(FRT_CALLER(), seed, sizeof *seed, true);
    return r;
}
FRT_EXPORT char* getcwd(char* buf, size_t size) {
    char* r = REAL(getcwd)(buf, size);
    if (r != nullptr && r == buf) accessed(FRT_CALLER(), buf, string_length(buf) + 1, true);
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

FRT_EXPORT long double strtold(const char* s, char** endptr) {
    char* end;
    const long double r = REAL(strtold)(s, &end);
    parsed(FRT_CALLER(), s, end, endptr);
    if (endptr != nullptr) *endptr = end;
    return r;
}
FRT_EXPORT intmax_t strtoimax(const char* s, char** endptr, int base) {
    char* end;
    const intmax_t r = REAL(strtoimax)(s, &end, base);
    parsed(FRT_CALLER(), s, end, endptr);
    if (endptr != nullptr) *endptr = end;
    return r;
}
FRT_EXPORT uintmax_t strtoumax(const char* s, char** endptr, int base) {
    char* end;
    const uintmax_t r = REAL(strtoumax)(s, &end, base);
    parsed(FRT_CALLER(), s, end, endptr);
    if (endptr != nullptr) *endptr = end;
    return r;
}

// --- time conversions ----------------------------------------------------------------------------

FRT_EXPORT time_t mktime(struct tm* tm) {
    return normalized(FRT_CALLER(), tm, REAL(mktime));
}
FRT_EXPORT time_t timegm(struct tm* tm) {
    return normalized(FRT_CALLER(), tm, REAL(timegm));
}
FRT_EXPORT size_t strftime(char* s, size_t max, const char* format, const struct tm* tm) {
    const u64 pc = FRT_CALLER();
    accessed(pc, format, string_length(format) + 1, false);
    accessed(pc, tm, sizeof *tm, false);
    size_t r;
    {
        ProgramAllocations program(pc);
        r = REAL(strftime)(s, max, format, tm);
    }
    if (r != 0) accessed(pc, s, r + 1, true);
    return r;
}
FRT_EXPORT char* strptime(const char* s, const char* format, struct tm* tm) {
    const u64 pc = FRT_CALLER();
    accessed(pc, format, string_length(format) + 1, false);
    char* r = REAL(strptime)(s, format, tm);
    accessed(pc, s, r != nullptr ? static_cast<u64>(r - s) : string_length(s) + 1, false);
    if (r != nullptr) accessed(pc, tm, sizeof *tm, true);
    return r;
}

// --- paths, addresses, error texts
// -----------------------------------------------------------------

FRT_EXPORT char* realpath(const char* path, char* resolved) {
    const u64 pc = FRT_CALLER();
    if (path != nullptr) accessed(pc, path, string_length(path) + 1, false);
    char* r;
    {
        ProgramAllocations program(pc);
        r = REAL(realpath)(path, resolved);
    }
    if (r != nullptr) accessed(pc, r, string_length(r) + 1, true);
    return r;
}
FRT_EXPORT ssize_t readlink(const char* path, char* buf, size_t n) {
    accessed(FRT_CALLER(), path, string_length(path) + 1, false);
    const ssize_t r = REAL(readlink)(path, buf, n);
    if (r > 0) accessed(FRT_CALLER(), buf, static_cast<u64>(r), true);
    return r;
}
FRT_EXPORT ssize_t readlinkat(int dir, const char* path, char* buf, size_t n) {
    accessed(FRT_CALLER(), path, string_length(path) + 1, false);
    const ssize_t r = REAL(readlinkat)(dir, path, buf, n);
    if (r > 0) accessed(FRT_CALLER(), buf, static_cast<u64>(r), true);
    return r;
}
FRT_EXPORT const char* inet_ntop(int af, const void* src, char* dst, socklen_t size) {
    accessed(FRT_CALLER(), src, address_size(af), false);
    const char* r = REAL(inet_ntop)(af, src, dst, size);
    if (r != nullptr) accessed(FRT_CALLER(), dst, string_length(dst) + 1, true);
    return r;
}
FRT_EXPORT int inet_pton(int af, const char* src, void* dst) {
    accessed(FRT_CALLER(), src, string_length(src) + 1, false);
    const int r = REAL(inet_pton)(af, src, dst);
    if (r == 1) accessed(FRT_CALLER(), dst, address_size(af), true);
    return r;
}
FRT_EXPORT int inet_aton(const char* text, struct in_addr* out) {
    accessed(FRT_CALLER(), text, string_length(text) + 1, false);
    const int r = REAL(inet_aton)(text, out);
    if (r != 0) accessed(FRT_CALLER(), out, sizeof *out, true);
    return r;
}
FRT_EXPORT int __xpg_strerror_r(int e, char* buf, size_t n) {
    const int r = REAL(__xpg_strerror_r)(e, buf, n);
    if (n != 0) {
        u64 stored = 0;
        while (stored + 1 < n && buf[stored] != 0)
            ++stored;
        accessed(FRT_CALLER(), buf, stored + 1, true);
    }
    return r;
}

// --- processes, sleeping, the system
// ----------------------------------------------------------------

FRT_EXPORT pid_t wait(int* status) {
    return waited(FRT_CALLER(), REAL(wait)(status), status);
}
FRT_EXPORT pid_t waitpid(pid_t pid, int* status, int options) {
    return waited(FRT_CALLER(), REAL(waitpid)(pid, status, options), status);
}
FRT_EXPORT pid_t wait3(int* status, int options, struct rusage* usage) {
    const pid_t r = waited(FRT_CALLER(), REAL(wait3)(status, options, usage), status);
    if (r > 0) accessed(FRT_CALLER(), usage, sizeof *usage, true);
    return r;
}
FRT_EXPORT pid_t wait4(pid_t pid, int* status, int options, struct rusage* usage) {
    const pid_t r = waited(FRT_CALLER(), REAL(wait4)(pid, status, options, usage), status);
    if (r > 0) accessed(FRT_CALLER(), usage, sizeof *usage, true);
    return r;
}
FRT_EXPORT int waitid(idtype_t type, id_t id, siginfo_t* info, int options) {
    const int r = REAL(waitid)(type, id, info, options);
    if (r == 0) accessed(FRT_CALLER(), info, sizeof *info, true);
    if (r == 0) child_waited(FRT_CALLER(), info);
    return r;
}
FRT_EXPORT int nanosleep(const struct timespec* request, struct timespec* remaining) {
    accessed(FRT_CALLER(), request, sizeof *request, false);
    const int r = REAL(nanosleep)(request, remaining);
    if (r != 0) accessed(FRT_CALLER(), remaining, sizeof *remaining, true);
    return r;
}
FRT_EXPORT int clock_nanosleep(clockid_t clock, int flags, const struct timespec* request,
                               struct timespec* remaining) {
    accessed(FRT_CALLER(), request, sizeof *request, false);
    const int r = REAL(clock_nanosleep)(clock, flags, request, remaining);
    if (r == EINTR && (flags & TIMER_ABSTIME) == 0)
        accessed(FRT_CALLER(), remaining, sizeof *remaining, true);
    return r;
}
FRT_EXPORT int pthread_getname_np(pthread_t thread, char* name, size_t n) {
    const int r = REAL(pthread_getname_np)(thread, name, n);
    if (r == 0) accessed(FRT_CALLER(), name, strnlen(name, n) + (strnlen(name, n) < n), true);
    return r;
}

namespace {
// The first `bytes` bytes of an iovec list, read or written, as the kernel copies them in order.
void iovecs_accessed(u64 pc, const struct iovec* v, unsigned long count, u64 bytes, bool write) {
    for (unsigned long i = 0; i < count && bytes != 0; ++i) {
        const u64 n = v[i].iov_len < bytes ? v[i].iov_len : bytes;
        accessed(pc, v[i].iov_base, n, write);
        bytes -= n;
    }
}
// process_vm_readv/writev returned r: the bytes copied, from `from` into `to`, when the process
// is the caller's own.
ssize_t process_memory_copied(u64 pc, pid_t pid, ssize_t r, const struct iovec* from,
                              unsigned long from_count, const struct iovec* to,
                              unsigned long to_count) {
    if (r > 0 && pid == getpid()) {
        iovecs_accessed(pc, from, from_count, static_cast<u64>(r), false);
        iovecs_accessed(pc, to, to_count, static_cast<u64>(r), true);
    }
    return r;
}
} // namespace

FRT_EXPORT ssize_t process_vm_readv(pid_t pid, const struct iovec* local, unsigned long local_count,
                                    const struct iovec* remote, unsigned long remote_count,
                                    unsigned long flags) {
    return process_memory_copied(
        FRT_CALLER(), pid,
        REAL(process_vm_readv)(pid, local, local_count, remote, remote_count, flags), remote,
        remote_count, local, local_count);
}
FRT_EXPORT ssize_t process_vm_writev(pid_t pid, const struct iovec* local,
                                     unsigned long local_count, const struct iovec* remote,
                                     unsigned long remote_count, unsigned long flags) {
    return process_memory_copied(
        FRT_CALLER(), pid,
        REAL(process_vm_writev)(pid, local, local_count, remote, remote_count, flags), local,
        local_count, remote, remote_count);
}
FRT_EXPORT int uname(struct utsname* out) {
    const int r = REAL(uname)(out);
    if (r == 0) accessed(FRT_CALLER(), out, sizeof *out, true);
    return r;
}
FRT_EXPORT int gethostname(char* name, size_t n) {
    const int r = REAL(gethostname)(name, n);
    if (r == 0 && n != 0) accessed(FRT_CALLER(), name, string_length(name) + 1, true);
    return r;
}
FRT_EXPORT ssize_t getrandom(void* buf, size_t n, unsigned flags) {
    const ssize_t r = REAL(getrandom)(buf, n, flags);
    if (r > 0) accessed(FRT_CALLER(), buf, static_cast<u64>(r), true);
    return r;
}
FRT_EXPORT int getrusage(int who, struct rusage* usage) {
    const int r = REAL(getrusage)(who, usage);
    if (r == 0) accessed(FRT_CALLER(), usage, sizeof *usage, true);
    return r;
}
FRT_EXPORT clock_t times(struct tms* out) {
    const clock_t r = REAL(times)(out);
    if (r != static_cast<clock_t>(-1)) accessed(FRT_CALLER(), out, sizeof *out, true);
    return r;
}
FRT_EXPORT int sysinfo(struct sysinfo* out) {
    const int r = REAL(sysinfo)(out);
    if (r == 0) accessed(FRT_CALLER(), out, sizeof *out, true);
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
FRT_INTERCEPTOR_ALIAS(stat64)
FRT_INTERCEPTOR_ALIAS(lstat64)
FRT_INTERCEPTOR_ALIAS(fstat64)
FRT_INTERCEPTOR_ALIAS(fstatat64)
FRT_INTERCEPTOR_ALIAS(statx)
FRT_INTERCEPTOR_ALIAS(statfs)
FRT_INTERCEPTOR_ALIAS(fstatfs)
FRT_INTERCEPTOR_ALIAS(statvfs)
FRT_INTERCEPTOR_ALIAS(fstatvfs)
FRT_INTERCEPTOR_ALIAS(statfs64)
FRT_INTERCEPTOR_ALIAS(fstatfs64)
FRT_INTERCEPTOR_ALIAS(statvfs64)
FRT_INTERCEPTOR_ALIAS(fstatvfs64)
FRT_INTERCEPTOR_ALIAS(rand_r)
FRT_INTERCEPTOR_ALIAS(getcwd)
FRT_INTERCEPTOR_ALIAS(strtol)
FRT_INTERCEPTOR_ALIAS(strtoul)
FRT_INTERCEPTOR_ALIAS(strtoll)
FRT_INTERCEPTOR_ALIAS(strtoull)
FRT_INTERCEPTOR_ALIAS(strtod)
FRT_INTERCEPTOR_ALIAS(strtof)
FRT_INTERCEPTOR_ALIAS(strtold)
FRT_INTERCEPTOR_ALIAS(strtoimax)
FRT_INTERCEPTOR_ALIAS(strtoumax)
FRT_INTERCEPTOR_ALIAS(mktime)
FRT_INTERCEPTOR_ALIAS(timegm)
FRT_INTERCEPTOR_ALIAS(strftime)
FRT_INTERCEPTOR_ALIAS(strptime)
FRT_INTERCEPTOR_ALIAS(realpath)
FRT_INTERCEPTOR_ALIAS(readlink)
FRT_INTERCEPTOR_ALIAS(readlinkat)
FRT_INTERCEPTOR_ALIAS(inet_ntop)
FRT_INTERCEPTOR_ALIAS(inet_pton)
FRT_INTERCEPTOR_ALIAS(inet_aton)
FRT_INTERCEPTOR_ALIAS(__xpg_strerror_r)
FRT_INTERCEPTOR_ALIAS(wait)
FRT_INTERCEPTOR_ALIAS(waitpid)
FRT_INTERCEPTOR_ALIAS(wait3)
FRT_INTERCEPTOR_ALIAS(wait4)
FRT_INTERCEPTOR_ALIAS(waitid)
FRT_INTERCEPTOR_ALIAS(nanosleep)
FRT_INTERCEPTOR_ALIAS(clock_nanosleep)
FRT_INTERCEPTOR_ALIAS(uname)
FRT_INTERCEPTOR_ALIAS(pthread_getname_np)
FRT_INTERCEPTOR_ALIAS(process_vm_readv)
FRT_INTERCEPTOR_ALIAS(process_vm_writev)
FRT_INTERCEPTOR_ALIAS(gethostname)
FRT_INTERCEPTOR_ALIAS(getrandom)
FRT_INTERCEPTOR_ALIAS(getrusage)
FRT_INTERCEPTOR_ALIAS(times)
FRT_INTERCEPTOR_ALIAS(sysinfo)
