// More C library calls that answer into the caller's memory (the GNU and Linux ones the
// seventeenth session's sweep, rt_libc_queries.cpp, left): the bytes they store are writes at
// the caller's program counter and what they are given to read are reads, as if the call were
// instrumented code (ThreadSanitizer's common interceptors record the same ranges). glibc does
// the work inside (system calls, its own string functions), where nothing is seen otherwise.
//
//   pthread_getaffinity_np     writes the mask (the size given)
//   prctl                      PR_SET_NAME reads the name (at most 16 bytes), PR_GET_NAME
//                              writes 16 bytes; PR_GET_PDEATHSIG, PR_GET_TID_ADDRESS and
//                              PR_GET_CHILD_SUBREAPER write their int / pointer; other options
//                              pass their arguments by value or are not modelled
//   getentropy                 writes the bytes asked for (glibc calls its getrandom inside)
//   getgrouplist               reads the user name and *ngroups, writes *ngroups and the
//                              groups it stored (no more than the room given)
//   backtrace                  writes the return addresses it stored
//   backtrace_symbols          reads the addresses; writes the array and the strings in the
//                              block it allocates (the program's allocation)
//   ether_line, ether_hostton, read the line / host name / address, write the address / the
//   ether_ntohost              host name stored (a success only)
//   capget, capset             read the header; capget writes the data (one structure for
//                              version 1, two for 2 and 3), or the version the kernel prefers
//                              into the header when it rejects the one given; capset reads them
//   sem_unlink                 reads the name
// A failed call stores nothing unless said. Only from threads the runtime already knows, never
// from inside the runtime.
#include <execinfo.h>
#include <grp.h>
#include <linux/capability.h>
#include <netinet/ether.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdarg.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>

#include "rt_library_call.hpp"
#include "rt_real.hpp"

using namespace frt;

extern "C" int capget(cap_user_header_t header, cap_user_data_t data);
extern "C" int capset(cap_user_header_t header, const cap_user_data_t data);

namespace {

using PrctlFn = int (*)(int, unsigned long, unsigned long, unsigned long, unsigned long);
FRT_DECLARE_REAL(pthread_getaffinity_np);
FRT_DECLARE_REAL_TYPED(prctl, PrctlFn);
FRT_DECLARE_REAL(getentropy);
FRT_DECLARE_REAL(getgrouplist);
FRT_DECLARE_REAL(backtrace);
FRT_DECLARE_REAL(backtrace_symbols);
FRT_DECLARE_REAL(ether_line);
FRT_DECLARE_REAL(ether_hostton);
FRT_DECLARE_REAL(ether_ntohost);
FRT_DECLARE_REAL(capget);
FRT_DECLARE_REAL(capset);
FRT_DECLARE_REAL(sem_unlink);

// size bytes at p accessed by the call made at pc.
void by_call(u64 pc, const void* p, u64 size, bool write) {
    if (LibraryCall c(pc); c) c.bytes(p, size, write);
}
// The text at s (with its terminator) accessed by the call made at pc.
void text_by_call(u64 pc, const char* s, bool write) {
    if (LibraryCall c(pc); c) c.text(s, write);
}

constexpr u64 kTaskNameSize = 16; // TASK_COMM_LEN, what PR_SET_NAME/PR_GET_NAME use

// The data structures a capability header's version stands for.
u64 capability_data_count(u32 version) {
    if (version == _LINUX_CAPABILITY_VERSION_1) return _LINUX_CAPABILITY_U32S_1;
    if (version == _LINUX_CAPABILITY_VERSION_2) return _LINUX_CAPABILITY_U32S_2;
    if (version == _LINUX_CAPABILITY_VERSION_3) return _LINUX_CAPABILITY_U32S_3;
    return 0;
}

} // namespace

FRT_EXPORT int pthread_getaffinity_np(pthread_t thread, size_t size, cpu_set_t* mask) {
    const int r = REAL(pthread_getaffinity_np)(thread, size, mask);
    if (r == 0) by_call(FRT_CALLER(), mask, size, true);
    return r;
}

FRT_EXPORT int prctl(int option, ...) {
    va_list args;
    va_start(args, option);
    const unsigned long a2 = va_arg(args, unsigned long);
    const unsigned long a3 = va_arg(args, unsigned long);
    const unsigned long a4 = va_arg(args, unsigned long);
    const unsigned long a5 = va_arg(args, unsigned long);
    va_end(args);
    auto real = REAL(prctl);
    if (real == nullptr) {
        errno = ENOSYS;
        return -1;
    }
    const u64 pc = FRT_CALLER();
    auto* p = reinterpret_cast<char*>(a2);
    if (option == PR_SET_NAME && p != nullptr)
        if (LibraryCall c(pc); c) c.bytes(p, string_extent(p, kTaskNameSize), false);
    const int r = real(option, a2, a3, a4, a5);
    if (r == 0) {
        if (option == PR_GET_NAME) by_call(pc, p, kTaskNameSize, true);
        if (option == PR_GET_PDEATHSIG || option == PR_GET_CHILD_SUBREAPER)
            by_call(pc, p, sizeof(int), true);
        if (option == PR_GET_TID_ADDRESS) by_call(pc, p, sizeof(int*), true);
    }
    return r;
}

FRT_EXPORT int getentropy(void* buffer, size_t length) {
    const int r = REAL(getentropy)(buffer, length);
    if (r == 0) by_call(FRT_CALLER(), buffer, length, true);
    return r;
}

FRT_EXPORT int getgrouplist(const char* user, gid_t group, gid_t* groups, int* ngroups) {
    const u64 pc = FRT_CALLER();
    text_by_call(pc, user, false);
    by_call(pc, ngroups, sizeof *ngroups, false);
    const int room = ngroups != nullptr ? *ngroups : 0;
    const int r = REAL(getgrouplist)(user, group, groups, ngroups);
    const int error = errno; // -1 (too little room) stores too
    if (LibraryCall c(pc); c && ngroups != nullptr) {
        c.bytes(ngroups, sizeof *ngroups, true);
        const int n = *ngroups < room ? *ngroups : room;
        if (n > 0) c.bytes(groups, static_cast<u64>(n) * sizeof *groups, true);
    }
    errno = error;
    return r;
}

FRT_EXPORT int backtrace(void** buffer, int size) {
    const int r = REAL(backtrace)(buffer, size);
    if (r > 0) by_call(FRT_CALLER(), buffer, static_cast<u64>(r) * sizeof *buffer, true);
    return r;
}
FRT_EXPORT char** backtrace_symbols(void* const* buffer, int size) {
    const u64 pc = FRT_CALLER();
    if (size > 0) by_call(pc, buffer, static_cast<u64>(size) * sizeof *buffer, false);
    char** r = REAL(backtrace_symbols)(buffer, size);
    if (r != nullptr && size > 0)
        if (LibraryCall c(pc); c) {
            c.bytes(r, static_cast<u64>(size) * sizeof *r, true);
            for (int i = 0; i < size; ++i)
                c.text(r[i], true);
        }
    return r;
}

FRT_EXPORT int ether_line(const char* line, struct ether_addr* addr, char* hostname) {
    const u64 pc = FRT_CALLER();
    text_by_call(pc, line, false);
    const int r = REAL(ether_line)(line, addr, hostname);
    if (r == 0)
        if (LibraryCall c(pc); c) {
            c.bytes(addr, sizeof *addr, true);
            c.text(hostname, true);
        }
    return r;
}
FRT_EXPORT int ether_hostton(const char* hostname, struct ether_addr* addr) {
    const u64 pc = FRT_CALLER();
    text_by_call(pc, hostname, false);
    const int r = REAL(ether_hostton)(hostname, addr);
    if (r == 0) by_call(pc, addr, sizeof *addr, true);
    return r;
}
FRT_EXPORT int ether_ntohost(char* hostname, const struct ether_addr* addr) {
    const u64 pc = FRT_CALLER();
    by_call(pc, addr, sizeof *addr, false);
    const int r = REAL(ether_ntohost)(hostname, addr);
    if (r == 0) text_by_call(pc, hostname, true);
    return r;
}

FRT_EXPORT int capget(cap_user_header_t header, cap_user_data_t data) {
    const u64 pc = FRT_CALLER();
    by_call(pc, header, sizeof *header, false);
    const u32 version = header != nullptr ? header->version : 0;
    const int r = REAL(capget)(header, data);
    if (r == 0 && data != nullptr)
        by_call(pc, data, capability_data_count(version) * sizeof *data, true);
    const int error = errno;
    if (r != 0 && error == EINVAL && header != nullptr && capability_data_count(version) == 0) {
        by_call(pc, header, sizeof header->version, true);
        errno = error;
    }
    return r;
}
FRT_EXPORT int capset(cap_user_header_t header, const cap_user_data_t data) {
    const u64 pc = FRT_CALLER();
    by_call(pc, header, sizeof *header, false);
    if (header != nullptr)
        by_call(pc, data, capability_data_count(header->version) * sizeof *data, false);
    return REAL(capset)(header, data);
}

FRT_EXPORT int sem_unlink(const char* name) {
    text_by_call(FRT_CALLER(), name, false);
    return REAL(sem_unlink)(name);
}

FRT_INTERCEPTOR_ALIAS(pthread_getaffinity_np)
FRT_INTERCEPTOR_ALIAS(prctl)
FRT_INTERCEPTOR_ALIAS(getentropy)
FRT_INTERCEPTOR_ALIAS(getgrouplist)
FRT_INTERCEPTOR_ALIAS(backtrace)
FRT_INTERCEPTOR_ALIAS(backtrace_symbols)
FRT_INTERCEPTOR_ALIAS(ether_line)
FRT_INTERCEPTOR_ALIAS(ether_hostton)
FRT_INTERCEPTOR_ALIAS(ether_ntohost)
FRT_INTERCEPTOR_ALIAS(capget)
FRT_INTERCEPTOR_ALIAS(capset)
FRT_INTERCEPTOR_ALIAS(sem_unlink)
