// C library calls that answer a question into the caller's memory (a socket's address, a
// signal set, an attribute, an id, a limit): the bytes they store are writes at the caller's
// program counter, and the objects they are given to read are reads, as if the call were
// instrumented code (ThreadSanitizer's common interceptors record the same ranges). Two threads
// getting a socket's name into one unguarded structure race; so does a thread that reads an
// answer while another thread's next call overwrites it.
//
//   getsockname, getpeername, getsockopt   read *len, write *len and the bytes stored (at
//                                          most the room given)
//   bind                                   reads the address
//   getitimer, sigpending, sigemptyset,    write the structure / set
//   sigfillset, tcgetattr, ftime
//   sigandset, sigorset                    read both sets, write the result
//   sigaltstack                            reads the new stack, writes the old one
//   sched_getaffinity, sched_getparam,     write the mask (the size given) / the parameters /
//   pthread_getschedparam,                 the clock id
//   pthread_getcpuclockid, clock_getres,
//   clock_getcpuclockid
//   clock_settime                          reads the time
//   getresuid, getresgid, getgroups        write the ids (getgroups: the ones it stored)
//   confstr, getloadavg, mincore,          write what they stored (confstr: at most the room
//   sem_getvalue                           given; mincore: a byte a page)
//   pthread_attr_get*, pthread_mutexattr_get*, pthread_condattr_get*,
//   pthread_rwlockattr_get*, pthread_barrierattr_getpshared
//                                          write the value asked for
//   tmpnam_r, if_indextoname               write the name (with its terminator)
//   if_nametoindex, unlink, rmdir          read the name / path
//   get_current_dir_name,                  read the path; write the path returned in a block
//   canonicalize_file_name                 the call allocates (the program's allocation)
//   getxattr, lgetxattr, fgetxattr,        read the path and the name; write the bytes stored
//   listxattr, llistxattr, flistxattr
// A failed call stores nothing. Only from threads the runtime already knows, never from inside
// the runtime (which calls sigemptyset, sigaltstack, mincore and confstr itself).
#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/timeb.h>
#include <sys/xattr.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "rt_library_call.hpp"
#include "rt_real.hpp"
#include "rt_stdio.hpp"

using namespace frt;

namespace {

// The call made at pc returned r (0: success): when it succeeded, *out was written.
template <class Out> int stored(u64 pc, int r, const Out* out) {
    if (r == 0)
        if (LibraryCall c(pc); c) c.bytes(out, sizeof *out, true);
    return r;
}
// size bytes at p read by the call made at pc.
void read_by_call(u64 pc, const void* p, u64 size) {
    if (LibraryCall c(pc); c) c.bytes(p, size, false);
}
// The text at s read by the call made at pc.
void text_read(u64 pc, const char* s) {
    if (LibraryCall c(pc); c) c.text(s, false);
}
// The text r returned by the call made at pc, written by it (nothing for null).
template <class Text> Text text_stored(u64 pc, Text r) {
    if (r != nullptr)
        if (LibraryCall c(pc); c) c.text(r, true);
    return r;
}
// A call that stores at most *len bytes at p and the size of what it has into *len (the
// socket queries): *len read before, both written after a success.
template <class Real> int sized_answer(u64 pc, void* p, socklen_t* len, Real real) {
    read_by_call(pc, len, sizeof *len);
    const socklen_t room = len != nullptr ? *len : 0;
    const int r = real();
    if (LibraryCall c(pc); c && r == 0) {
        c.bytes(len, sizeof *len, true);
        c.bytes(p, *len < room ? *len : room, true);
    }
    return r;
}
// A call returning a byte count r (the extended attributes): r bytes stored at p when the
// caller gave room (size 0 asks for the size only).
ssize_t bytes_stored(u64 pc, ssize_t r, const void* p, size_t size) {
    if (r > 0 && size != 0)
        if (LibraryCall c(pc); c) c.bytes(p, static_cast<u64>(r), true);
    return r;
}

FRT_DECLARE_REAL(getsockname);
FRT_DECLARE_REAL(getpeername);
FRT_DECLARE_REAL(getsockopt);
FRT_DECLARE_REAL(bind);
FRT_DECLARE_REAL(getitimer);
FRT_DECLARE_REAL(sigpending);
FRT_DECLARE_REAL(sigemptyset);
FRT_DECLARE_REAL(sigfillset);
FRT_DECLARE_REAL(sigandset);
FRT_DECLARE_REAL(sigorset);
FRT_DECLARE_REAL(sigaltstack);
FRT_DECLARE_REAL(tcgetattr);
FRT_DECLARE_REAL_TYPED(ftime, int (*)(struct timeb*));
FRT_DECLARE_REAL(sched_getaffinity);
FRT_DECLARE_REAL(sched_getparam);
FRT_DECLARE_REAL(pthread_getschedparam);
FRT_DECLARE_REAL(pthread_getcpuclockid);
FRT_DECLARE_REAL(clock_getres);
FRT_DECLARE_REAL(clock_getcpuclockid);
FRT_DECLARE_REAL(clock_settime);
FRT_DECLARE_REAL(getresuid);
FRT_DECLARE_REAL(getresgid);
FRT_DECLARE_REAL(getgroups);
FRT_DECLARE_REAL(confstr);
FRT_DECLARE_REAL(getloadavg);
FRT_DECLARE_REAL(mincore);
FRT_DECLARE_REAL(sem_getvalue);
FRT_DECLARE_REAL_TYPED(tmpnam_r, char* (*)(char*));
FRT_DECLARE_REAL(if_indextoname);
FRT_DECLARE_REAL(if_nametoindex);
FRT_DECLARE_REAL(unlink);
FRT_DECLARE_REAL(rmdir);
FRT_DECLARE_REAL(get_current_dir_name);
FRT_DECLARE_REAL(canonicalize_file_name);
FRT_DECLARE_REAL(getxattr);
FRT_DECLARE_REAL(lgetxattr);
FRT_DECLARE_REAL(fgetxattr);
FRT_DECLARE_REAL(listxattr);
FRT_DECLARE_REAL(llistxattr);
FRT_DECLARE_REAL(flistxattr);
FRT_DECLARE_REAL(pthread_attr_getstack);
FRT_DECLARE_REAL(pthread_attr_getaffinity_np);

} // namespace

extern "C" int ftime(struct timeb* tb);

// --- sockets
// ---------------------------------------------------------------------------------------

FRT_EXPORT int getsockname(int fd, struct sockaddr* addr, socklen_t* len) {
    return sized_answer(FRT_CALLER(), addr, len, [&] { return REAL(getsockname)(fd, addr, len); });
}
FRT_EXPORT int getpeername(int fd, struct sockaddr* addr, socklen_t* len) {
    return sized_answer(FRT_CALLER(), addr, len, [&] { return REAL(getpeername)(fd, addr, len); });
}
FRT_EXPORT int getsockopt(int fd, int level, int name, void* value, socklen_t* len) {
    return sized_answer(FRT_CALLER(), value, len,
                        [&] { return REAL(getsockopt)(fd, level, name, value, len); });
}
FRT_EXPORT int bind(int fd, const struct sockaddr* addr, socklen_t len) {
    read_by_call(FRT_CALLER(), addr, len);
    return REAL(bind)(fd, addr, len);
}

// --- signals, timers, terminals ----------------------------------------------------------------

FRT_EXPORT int getitimer(int which, struct itimerval* value) {
    return stored(FRT_CALLER(), REAL(getitimer)(which, value), value);
}
FRT_EXPORT int sigpending(sigset_t* set) {
    return stored(FRT_CALLER(), REAL(sigpending)(set), set);
}
FRT_EXPORT int sigemptyset(sigset_t* set) {
    return stored(FRT_CALLER(), REAL(sigemptyset)(set), set);
}
FRT_EXPORT int sigfillset(sigset_t* set) {
    return stored(FRT_CALLER(), REAL(sigfillset)(set), set);
}
FRT_EXPORT int sigandset(sigset_t* set, const sigset_t* left, const sigset_t* right) {
    read_by_call(FRT_CALLER(), left, sizeof *left);
    read_by_call(FRT_CALLER(), right, sizeof *right);
    return stored(FRT_CALLER(), REAL(sigandset)(set, left, right), set);
}
FRT_EXPORT int sigorset(sigset_t* set, const sigset_t* left, const sigset_t* right) {
    read_by_call(FRT_CALLER(), left, sizeof *left);
    read_by_call(FRT_CALLER(), right, sizeof *right);
    return stored(FRT_CALLER(), REAL(sigorset)(set, left, right), set);
}
FRT_EXPORT int sigaltstack(const stack_t* stack, stack_t* old) {
    read_by_call(FRT_CALLER(), stack, sizeof *stack);
    return stored(FRT_CALLER(), REAL(sigaltstack)(stack, old), old);
}
FRT_EXPORT int tcgetattr(int fd, struct termios* t) {
    return stored(FRT_CALLER(), REAL(tcgetattr)(fd, t), t);
}
FRT_EXPORT int ftime(struct timeb* tb) {
    return stored(FRT_CALLER(), REAL(ftime)(tb), tb);
}

// --- scheduling, clocks, ids, limits -----------------------------------------------------------

FRT_EXPORT int sched_getaffinity(pid_t pid, size_t size, cpu_set_t* mask) {
    const int r = REAL(sched_getaffinity)(pid, size, mask);
    if (r == 0)
        if (LibraryCall c(FRT_CALLER()); c) c.bytes(mask, size, true);
    return r;
}
FRT_EXPORT int sched_getparam(pid_t pid, struct sched_param* param) {
    return stored(FRT_CALLER(), REAL(sched_getparam)(pid, param), param);
}
FRT_EXPORT int pthread_getschedparam(pthread_t thread, int* policy, struct sched_param* param) {
    const int r = REAL(pthread_getschedparam)(thread, policy, param);
    stored(FRT_CALLER(), r, policy);
    return stored(FRT_CALLER(), r, param);
}
FRT_EXPORT int pthread_getcpuclockid(pthread_t thread, clockid_t* clock) {
    return stored(FRT_CALLER(), REAL(pthread_getcpuclockid)(thread, clock), clock);
}
FRT_EXPORT int clock_getres(clockid_t clock, struct timespec* res) {
    return stored(FRT_CALLER(), REAL(clock_getres)(clock, res), res);
}
FRT_EXPORT int clock_getcpuclockid(pid_t pid, clockid_t* clock) {
    return stored(FRT_CALLER(), REAL(clock_getcpuclockid)(pid, clock), clock);
}
FRT_EXPORT int clock_settime(clockid_t clock, const struct timespec* t) {
    read_by_call(FRT_CALLER(), t, sizeof *t);
    return REAL(clock_settime)(clock, t);
}
FRT_EXPORT int getresuid(uid_t* real, uid_t* effective, uid_t* saved) {
    const int r = REAL(getresuid)(real, effective, saved);
    for (const uid_t* id : {real, effective, saved})
        stored(FRT_CALLER(), r, id);
    return r;
}
FRT_EXPORT int getresgid(gid_t* real, gid_t* effective, gid_t* saved) {
    const int r = REAL(getresgid)(real, effective, saved);
    for (const gid_t* id : {real, effective, saved})
        stored(FRT_CALLER(), r, id);
    return r;
}
FRT_EXPORT int getgroups(int size, gid_t* list) {
    const int r = REAL(getgroups)(size, list);
    if (r > 0 && size != 0)
        if (LibraryCall c(FRT_CALLER()); c) c.bytes(list, static_cast<u64>(r) * sizeof *list, true);
    return r;
}
FRT_EXPORT size_t confstr(int name, char* buf, size_t len) {
    const size_t r = REAL(confstr)(name, buf, len);
    if (r != 0 && buf != nullptr && len != 0)
        if (LibraryCall c(FRT_CALLER()); c) c.bytes(buf, r < len ? r : len, true);
    return r;
}
FRT_EXPORT int getloadavg(double* load, int n) {
    const int r = REAL(getloadavg)(load, n);
    if (r > 0)
        if (LibraryCall c(FRT_CALLER()); c) c.bytes(load, static_cast<u64>(r) * sizeof *load, true);
    return r;
}
FRT_EXPORT int mincore(void* addr, size_t len, unsigned char* vec) {
    const int r = REAL(mincore)(addr, len, vec);
    if (r == 0) {
        const u64 page = static_cast<u64>(sysconf(_SC_PAGESIZE));
        if (LibraryCall c(FRT_CALLER()); c) c.bytes(vec, (len + page - 1) / page, true);
    }
    return r;
}
FRT_EXPORT int sem_getvalue(sem_t* sem, int* value) {
    return stored(FRT_CALLER(), REAL(sem_getvalue)(sem, value), value);
}

// --- attribute objects -------------------------------------------------------------------------
// Each getter stores one value of the attribute object into *out.

#define FRT_ATTRIBUTE_GETTER(name, Object, Out)                                                    \
    FRT_DECLARE_REAL(name);                                                                        \
    FRT_EXPORT int name(const Object* object, Out* out) {                                          \
        return stored(FRT_CALLER(), REAL(name)(object, out), out);                                 \
    }                                                                                              \
    FRT_INTERCEPTOR_ALIAS(name)

FRT_ATTRIBUTE_GETTER(pthread_attr_getdetachstate, pthread_attr_t, int)
FRT_ATTRIBUTE_GETTER(pthread_attr_getguardsize, pthread_attr_t, size_t)
FRT_ATTRIBUTE_GETTER(pthread_attr_getinheritsched, pthread_attr_t, int)
FRT_ATTRIBUTE_GETTER(pthread_attr_getschedparam, pthread_attr_t, struct sched_param)
FRT_ATTRIBUTE_GETTER(pthread_attr_getschedpolicy, pthread_attr_t, int)
FRT_ATTRIBUTE_GETTER(pthread_attr_getscope, pthread_attr_t, int)
FRT_ATTRIBUTE_GETTER(pthread_attr_getstacksize, pthread_attr_t, size_t)
FRT_ATTRIBUTE_GETTER(pthread_mutexattr_getprioceiling, pthread_mutexattr_t, int)
FRT_ATTRIBUTE_GETTER(pthread_mutexattr_getprotocol, pthread_mutexattr_t, int)
FRT_ATTRIBUTE_GETTER(pthread_mutexattr_getpshared, pthread_mutexattr_t, int)
FRT_ATTRIBUTE_GETTER(pthread_mutexattr_getrobust, pthread_mutexattr_t, int)
FRT_ATTRIBUTE_GETTER(pthread_mutexattr_gettype, pthread_mutexattr_t, int)
FRT_ATTRIBUTE_GETTER(pthread_condattr_getclock, pthread_condattr_t, clockid_t)
FRT_ATTRIBUTE_GETTER(pthread_condattr_getpshared, pthread_condattr_t, int)
FRT_ATTRIBUTE_GETTER(pthread_rwlockattr_getpshared, pthread_rwlockattr_t, int)
FRT_ATTRIBUTE_GETTER(pthread_rwlockattr_getkind_np, pthread_rwlockattr_t, int)
FRT_ATTRIBUTE_GETTER(pthread_barrierattr_getpshared, pthread_barrierattr_t, int)

FRT_EXPORT int pthread_attr_getstack(const pthread_attr_t* attr, void** stack, size_t* size) {
    const int r = REAL(pthread_attr_getstack)(attr, stack, size);
    stored(FRT_CALLER(), r, stack);
    return stored(FRT_CALLER(), r, size);
}
FRT_EXPORT int pthread_attr_getaffinity_np(const pthread_attr_t* attr, size_t size,
                                           cpu_set_t* mask) {
    const int r = REAL(pthread_attr_getaffinity_np)(attr, size, mask);
    if (r == 0)
        if (LibraryCall c(FRT_CALLER()); c) c.bytes(mask, size, true);
    return r;
}

// --- names and paths ---------------------------------------------------------------------------

FRT_EXPORT char* tmpnam_r(char* s) {
    return text_stored(FRT_CALLER(), REAL(tmpnam_r)(s));
}
FRT_EXPORT char* if_indextoname(unsigned index, char* name) {
    return text_stored(FRT_CALLER(), REAL(if_indextoname)(index, name));
}
FRT_EXPORT unsigned if_nametoindex(const char* name) {
    text_read(FRT_CALLER(), name);
    return REAL(if_nametoindex)(name);
}
FRT_EXPORT int unlink(const char* path) {
    text_read(FRT_CALLER(), path);
    return REAL(unlink)(path);
}
FRT_EXPORT int rmdir(const char* path) {
    text_read(FRT_CALLER(), path);
    return REAL(rmdir)(path);
}
FRT_EXPORT char* get_current_dir_name() {
    char* r;
    {
        ProgramAllocations program(FRT_CALLER());
        r = REAL(get_current_dir_name)();
    }
    return text_stored(FRT_CALLER(), r);
}
FRT_EXPORT char* canonicalize_file_name(const char* path) {
    text_read(FRT_CALLER(), path);
    char* r;
    {
        ProgramAllocations program(FRT_CALLER());
        r = REAL(canonicalize_file_name)(path);
    }
    return text_stored(FRT_CALLER(), r);
}

// --- extended attributes -----------------------------------------------------------------------

FRT_EXPORT ssize_t getxattr(const char* path, const char* name, void* value, size_t size) {
    text_read(FRT_CALLER(), path);
    text_read(FRT_CALLER(), name);
    return bytes_stored(FRT_CALLER(), REAL(getxattr)(path, name, value, size), value, size);
}
FRT_EXPORT ssize_t lgetxattr(const char* path, const char* name, void* value, size_t size) {
    text_read(FRT_CALLER(), path);
    text_read(FRT_CALLER(), name);
    return bytes_stored(FRT_CALLER(), REAL(lgetxattr)(path, name, value, size), value, size);
}
FRT_EXPORT ssize_t fgetxattr(int fd, const char* name, void* value, size_t size) {
    text_read(FRT_CALLER(), name);
    return bytes_stored(FRT_CALLER(), REAL(fgetxattr)(fd, name, value, size), value, size);
}
FRT_EXPORT ssize_t listxattr(const char* path, char* list, size_t size) {
    text_read(FRT_CALLER(), path);
    return bytes_stored(FRT_CALLER(), REAL(listxattr)(path, list, size), list, size);
}
FRT_EXPORT ssize_t llistxattr(const char* path, char* list, size_t size) {
    text_read(FRT_CALLER(), path);
    return bytes_stored(FRT_CALLER(), REAL(llistxattr)(path, list, size), list, size);
}
FRT_EXPORT ssize_t flistxattr(int fd, char* list, size_t size) {
    return bytes_stored(FRT_CALLER(), REAL(flistxattr)(fd, list, size), list, size);
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(getsockname)
FRT_INTERCEPTOR_ALIAS(getpeername)
FRT_INTERCEPTOR_ALIAS(getsockopt)
FRT_INTERCEPTOR_ALIAS(bind)
FRT_INTERCEPTOR_ALIAS(getitimer)
FRT_INTERCEPTOR_ALIAS(sigpending)
FRT_INTERCEPTOR_ALIAS(sigemptyset)
FRT_INTERCEPTOR_ALIAS(sigfillset)
FRT_INTERCEPTOR_ALIAS(sigandset)
FRT_INTERCEPTOR_ALIAS(sigorset)
FRT_INTERCEPTOR_ALIAS(sigaltstack)
FRT_INTERCEPTOR_ALIAS(tcgetattr)
FRT_INTERCEPTOR_ALIAS(ftime)
FRT_INTERCEPTOR_ALIAS(sched_getaffinity)
FRT_INTERCEPTOR_ALIAS(sched_getparam)
FRT_INTERCEPTOR_ALIAS(pthread_getschedparam)
FRT_INTERCEPTOR_ALIAS(pthread_getcpuclockid)
FRT_INTERCEPTOR_ALIAS(clock_getres)
FRT_INTERCEPTOR_ALIAS(clock_getcpuclockid)
FRT_INTERCEPTOR_ALIAS(clock_settime)
FRT_INTERCEPTOR_ALIAS(getresuid)
FRT_INTERCEPTOR_ALIAS(getresgid)
FRT_INTERCEPTOR_ALIAS(getgroups)
FRT_INTERCEPTOR_ALIAS(confstr)
FRT_INTERCEPTOR_ALIAS(getloadavg)
FRT_INTERCEPTOR_ALIAS(mincore)
FRT_INTERCEPTOR_ALIAS(sem_getvalue)
FRT_INTERCEPTOR_ALIAS(pthread_attr_getstack)
FRT_INTERCEPTOR_ALIAS(pthread_attr_getaffinity_np)
FRT_INTERCEPTOR_ALIAS(tmpnam_r)
FRT_INTERCEPTOR_ALIAS(if_indextoname)
FRT_INTERCEPTOR_ALIAS(if_nametoindex)
FRT_INTERCEPTOR_ALIAS(unlink)
FRT_INTERCEPTOR_ALIAS(rmdir)
FRT_INTERCEPTOR_ALIAS(get_current_dir_name)
FRT_INTERCEPTOR_ALIAS(canonicalize_file_name)
FRT_INTERCEPTOR_ALIAS(getxattr)
FRT_INTERCEPTOR_ALIAS(lgetxattr)
FRT_INTERCEPTOR_ALIAS(fgetxattr)
FRT_INTERCEPTOR_ALIAS(listxattr)
FRT_INTERCEPTOR_ALIAS(llistxattr)
FRT_INTERCEPTOR_ALIAS(flistxattr)
