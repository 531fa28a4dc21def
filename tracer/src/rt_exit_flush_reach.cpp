// Every traced thread stays reachable by the exit flush signal (rt_exit.cpp). At exit the ending
// thread signals each other live thread, whose handler closes the thread's open computation
// event and ends its process: POSIX exit() ends every thread, and a thread that is blocked in a
// call then (a read that never returns, glibc's timer helper in sigwaitinfo) has done all it
// will do. A thread that blocks the signal cannot answer: it stays "still running" and the
// trace is cut as truncated although nothing of it was lost. Threads block it in two ways:
//   - the program blocks every signal (sigfillset + pthread_sigmask/sigprocmask: the signal
//     thread pattern, servers that block all signals before starting workers; sigsuspend with
//     all but one blocked): the signal is taken out of the program's blocked sets here, and out
//     of the sets its sigwait family accepts (a thread waiting for "every signal" would
//     otherwise receive the runtime's);
//   - the C library's own threads (the timer and message-queue SIGEV_THREAD helpers and the
//     notification threads they start) are created with all signals blocked: a thread attached
//     when it first runs traced code unblocks the signal for itself (attach_thread), as does a
//     created thread after taking its creator's or its attribute's mask.
//   - the calls that replace the mask while they wait (pselect, ppoll, epoll_pwait, epoll_pwait2:
//     rt_fd_readiness.cpp; sigsuspend here) get it taken out of their mask too, and so do the
//     same system calls made raw through syscall() (rt_sigprocmask, rt_sigsuspend,
//     rt_sigtimedwait's accepted set, pselect6, ppoll, epoll_pwait, epoll_pwait2): the kernel
//     reads only the first `sigsetsize` bytes of the set, so only those are copied.
// A mask set by a system call the program makes itself (inline assembly) still blocks it.
// The runtime's own mask changes (blocking everything around a deferred handler) are its own and
// pass unchanged. The old mask the program reads back shows the signal unblocked.
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_syscall.hpp"
#include "rt_system.hpp"

using namespace frt;

namespace {
using sigmask_fn = int (*)(int, const sigset_t*, sigset_t*);
FRT_DECLARE_REAL_TYPED(pthread_sigmask, sigmask_fn);
FRT_DECLARE_REAL_TYPED(sigprocmask, sigmask_fn);
FRT_DECLARE_REAL(sigsuspend);

// The program's `set` for `how`, without the exit flush signal when it would block it.
const sigset_t* without_exit_flush_block(int how, const sigset_t* set, sigset_t& copy, u64 pc) {
    if (set == nullptr || (how != SIG_BLOCK && how != SIG_SETMASK) || from_runtime(pc)) return set;
    return without_exit_flush_signal(set, copy);
}
} // namespace

const sigset_t* frt::without_exit_flush_signal(const sigset_t* set, sigset_t& copy) {
    if (set == nullptr || sigismember(set, exit_flush_signal()) != 1) return set;
    copy = *set;
    sigdelset(&copy, exit_flush_signal());
    return &copy;
}

namespace {
// The kernel's signal set at `set` (its first `size` bytes, as the system call reads them), when
// it holds the exit flush signal: a copy without it, else `set` itself (also when it cannot be
// read: the call fails as it would have).
long raw_set_without_exit_flush_signal(long set, long size, sigset_t& copy) {
    const auto bytes = static_cast<unsigned long>(size);
    if (bytes == 0 || bytes > sizeof copy ||
        static_cast<unsigned long>(exit_flush_signal() - 1) >= 8 * bytes)
        return set;
    sigemptyset(&copy);
    if (!copy_call_argument(&copy, static_cast<u64>(set), bytes)) return set;
    if (sigismember(&copy, exit_flush_signal()) != 1) return set;
    sigdelset(&copy, exit_flush_signal());
    return reinterpret_cast<long>(&copy);
}
} // namespace

void frt::keep_exit_flush_reachable(long number, long (&a)[6], RawSignalSet& copy, u64 pc) {
    if (from_runtime(pc)) return;
    switch (number) {
    case SYS_rt_sigprocmask: // how, set, old, size
        if (a[0] == SIG_BLOCK || a[0] == SIG_SETMASK)
            a[1] = raw_set_without_exit_flush_signal(a[1], a[3], copy.set);
        return;
    case SYS_rt_sigsuspend: // set, size
        a[0] = raw_set_without_exit_flush_signal(a[0], a[1], copy.set);
        return;
    case SYS_rt_sigtimedwait: // set (accepted), info, timeout, size
        a[0] = raw_set_without_exit_flush_signal(a[0], a[3], copy.set);
        return;
    case SYS_ppoll: // fds, n, timeout, mask, size
        a[3] = raw_set_without_exit_flush_signal(a[3], a[4], copy.set);
        return;
    case SYS_epoll_pwait: // epfd, events, max, timeout, mask, size
    case SYS_epoll_pwait2:
        a[4] = raw_set_without_exit_flush_signal(a[4], a[5], copy.set);
        return;
    case SYS_pselect6: { // n, in, out, except, timeout, {mask, size}
        if (!copy_call_argument(&copy.pselect_mask, static_cast<u64>(a[5]),
                                sizeof copy.pselect_mask))
            return;
        const long set = reinterpret_cast<long>(copy.pselect_mask.set);
        const long stripped = raw_set_without_exit_flush_signal(
            set, static_cast<long>(copy.pselect_mask.size), copy.set);
        if (stripped == set) return;
        copy.pselect_mask.set = &copy.set;
        a[5] = reinterpret_cast<long>(&copy.pselect_mask);
        return;
    }
    default:
        return;
    }
}

void frt::unblock_exit_flush_signal() {
    // The raw call: async-signal-safe, and not the program's (no interposed function).
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, exit_flush_signal());
    system_call(SYS_rt_sigprocmask, SIG_UNBLOCK, &set, nullptr, _NSIG / 8);
}

FRT_EXPORT int pthread_sigmask(int how, const sigset_t* set, sigset_t* old) {
    sigset_t copy;
    return REAL(pthread_sigmask)(how, without_exit_flush_block(how, set, copy, FRT_CALLER()), old);
}

FRT_EXPORT int sigprocmask(int how, const sigset_t* set, sigset_t* old) {
    sigset_t copy;
    return REAL(sigprocmask)(how, without_exit_flush_block(how, set, copy, FRT_CALLER()), old);
}

// The signal-waiting idiom (sigfillset, sigdelset the awaited one, sigsuspend) blocks every other
// signal for the call's duration.
FRT_EXPORT int sigsuspend(const sigset_t* mask) {
    sigset_t copy;
    return REAL(sigsuspend)(without_exit_flush_signal(mask, copy));
}

FRT_INTERCEPTOR_ALIAS(pthread_sigmask)
FRT_INTERCEPTOR_ALIAS(sigprocmask)
FRT_INTERCEPTOR_ALIAS(sigsuspend)
