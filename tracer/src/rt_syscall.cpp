// The program's syscall(): the raw system calls whose effects the runtime models are passed to
// their models (futexes: rt_futex.cpp; signal masks that would block the exit flush signal:
// rt_exit_flush_reach.cpp; closes and duplications that would touch the runtime's own descriptors:
// rt_own_descriptors.cpp, as the libc calls; execve and execveat: the trace finished before them
// and taken up again when they fail, rt_exec_finish.cpp), every other one is forwarded unchanged.
// Six arguments are read whatever the call takes, as glibc's own syscall() passes six registers to
// the kernel: the ones the call does not use are ignored by the kernel. The runtime's own system
// calls do not come here (rt_system.hpp). ThreadSanitizer does not intercept syscall().
#include <errno.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "rt_exec_finish.hpp"
#include "rt_exec_outcome.hpp"
#include "rt_own_descriptors.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_syscall.hpp"
#include "rt_system.hpp"

using namespace frt;

namespace {
FRT_DECLARE_REAL_TYPED(syscall, SyscallFn);
// The runtime's own descriptors (rt_own_descriptors.cpp): close, dup, fcntl of one fail with
// EBADF, dup2/dup3 onto one move it away first, close_range spares them. kNotSpared: forward
// the call unchanged (a raw call without hooks stays invisible to the descriptor model).
constexpr long kNotSpared = -4096;
long own_descriptors_spared(long number, const long* a) {
    const int fd = static_cast<int>(a[0]);
    switch (number) {
    case SYS_close:
    case SYS_dup:
    case SYS_fcntl:
        if (!is_own_descriptor(fd)) return kNotSpared;
        errno = EBADF;
        return -1;
    case SYS_dup2:
    case SYS_dup3:
        if (is_own_descriptor(fd)) {
            errno = EBADF;
            return -1;
        }
        if (vacate_own_descriptor(static_cast<int>(a[1]))) return kNotSpared;
        errno = EMFILE;
        return -1;
    case SYS_close_range:
        if (static_cast<unsigned>(a[0]) > static_cast<unsigned>(a[1])) return kNotSpared;
        return close_range_sparing_own(static_cast<unsigned>(a[0]), static_cast<unsigned>(a[1]),
                                       static_cast<int>(a[2]));
    default:
        return kNotSpared;
    }
}
// Whether a raw execve/execveat fails at the kernel's first checks (rt_exec_outcome.cpp).
bool raw_exec_fails(long number, const long* a) {
    const char* path = reinterpret_cast<const char*>(a[number == SYS_execve ? 0 : 1]);
    if (number == SYS_execve) return exec_of_path_fails(path);
    return exec_at_fails(static_cast<int>(a[0]), path, static_cast<int>(a[4]));
}
} // namespace

bool frt::copy_call_argument(void* to, u64 from, u64 n) {
    if (from == 0) return false;
    const struct iovec local = {to, n};
    const struct iovec remote = {reinterpret_cast<void*>(from), n};
    return system_call(SYS_process_vm_readv, system_call(SYS_getpid), &local, 1, &remote, 1, 0) ==
           static_cast<long>(n);
}

FRT_EXPORT long syscall(long number, ...) {
    va_list ap;
    va_start(ap, number);
    long a[6];
    for (long& v : a)
        v = va_arg(ap, long);
    va_end(ap);
    auto real = REAL(syscall);
    // unresolved only inside dlsym (the runtime itself): the call as glibc would make it
    if (real == nullptr) return system_call6(number, a[0], a[1], a[2], a[3], a[4], a[5]);
    const u64 pc = FRT_CALLER();
    if (futex_call_modelled(number, a)) return futex_call(number, a, real, pc);
    if (const long r = own_descriptors_spared(number, a); r != kNotSpared) return r;
    if (number == SYS_execve || number == SYS_execveat) // as the libc calls (rt_exec.cpp)
        return exec_with_trace_finished(raw_exec_fails(number, a), [&] {
            return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
        });
    RawSignalSet copy;
    keep_exit_flush_reachable(number, a, copy, pc);
    return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
FRT_INTERCEPTOR_ALIAS(syscall)
