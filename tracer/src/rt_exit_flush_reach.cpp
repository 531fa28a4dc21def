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
// The runtime's own mask changes (blocking everything around a deferred handler) are its own and
// pass unchanged. The old mask the program reads back shows the signal unblocked.
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_real.hpp"
#include "rt_record.hpp"
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
