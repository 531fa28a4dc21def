// Signals. A handler the program installs runs whenever the signal arrives, on whichever
// thread the kernel picks; what the program did before installing it happened before the
// handler runs. Sending a signal orders nothing before an asynchronous handler: pthread_kill
// and kill are not among the functions that synchronize memory (POSIX XBD 4.12), and a
// handler of a signal not raised by the thread itself that touches a non-atomic static object
// is undefined behaviour (C11 7.14.1.1p5) — ThreadSanitizer reports such a handler's access
// as racing with the sender's earlier write too (compiler-rt's pthread_atfork_deadlock3).
// Data handed to a handler goes through atomics, which are traced as such.
//
//   sigaction/signal   a Release on kObjSignal (key: the handler slot of the signal number),
//                      then the handler is installed wrapped: the wrapper records an Acquire
//                      on that object before the program's handler runs (errno preserved),
//                      on the interrupted thread.
//   kill, raise, pthread_kill, tgkill, sigqueue, pthread_sigqueue, alarm
//                      a Release on kObjSignal (key: the signal number) before the signal is
//                      sent (alarm: SIGALRM), acquired only by a synchronous acceptance:
//   sigwait, sigwaitinfo, sigtimedwait
//                      a thread that accepts a pending (blocked) signal synchronously instead
//                      of running a handler: an Acquire on kObjSignal of the signal it returned,
//                      after the return (the signal-handling thread pattern: block the
//                      signals in every thread, one thread waits for them; a returning call,
//                      like a read of what a pipe's writer sent, not an interruption).
// sigaction's `oldact` shows the program's handler, not the wrapper. A handler for a signal
// that interrupts the runtime itself runs when the thread leaves it (rt_deferred_signals.cpp).
//
// Alternate signal stacks: every traced thread gets one (unless the program set its own), so
// that the runtime's fatal-signal handler (SA_ONSTACK) can flush all threads' events even when
// a thread overflowed its stack.
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_signals.hpp"
#include "rt_system.hpp"

using namespace frt;
namespace fmt = firstrace::format;

namespace {

constexpr int kMaxSignal = 65;
// The program's handler per signal: sa_handler or sa_sigaction (SA_SIGINFO in the flags).
std::atomic<void*> g_handler[kMaxSignal];
std::atomic<bool> g_siginfo[kMaxSignal];

using sigaction_fn = int (*)(int, const struct sigaction*, struct sigaction*);
FRT_DECLARE_REAL_TYPED(sigaction, sigaction_fn);

// The sends of a signal (acquired by sigwait & co.).
const void* signal_object(int sig) {
    return reinterpret_cast<const void*>(static_cast<u64>(sig));
}

// The installations of a handler for a signal (acquired by the handler).
const void* handler_object(int sig) {
    return reinterpret_cast<const void*>(static_cast<u64>(kMaxSignal + sig));
}

void release_signal_object(const void* object, u64 pc) {
    InterceptorScope scope(enter_call(pc));
    if (!scope) return;
    release_now(scope.thread(), fmt::kObjSignal, object, pc, false);
}

} // namespace

void frt::signal_sent(int sig, u64 pc) {
    if (sig <= 0 || sig >= kMaxSignal) return;
    release_signal_object(signal_object(sig), pc);
}

void frt::signal_sent(ThreadState* t, int sig, u64 pc) {
    if (sig > 0 && sig < kMaxSignal) release_now(t, fmt::kObjSignal, signal_object(sig), pc, false);
}

void frt::deliver_signal(int sig, siginfo_t* info, void* context) {
    const int saved_errno = errno;
    void* h =
        sig > 0 && sig < kMaxSignal ? g_handler[sig].load(std::memory_order_acquire) : nullptr;
    const bool siginfo = h != nullptr && g_siginfo[sig].load(std::memory_order_relaxed);
    if (h != nullptr) {
        InterceptorScope scope(enter_attached());
        if (scope && find_object(fmt::kObjSignal, handler_object(sig)) != nullptr)
            acquire_now(scope.thread(), fmt::kObjSignal, handler_object(sig),
                        reinterpret_cast<u64>(h));
    }
    errno = saved_errno;
    if (h == nullptr) return;
    // The handler is not part of an annotated ignore region the thread was interrupted in
    // (AnnotateIgnoreReads/Writes/Sync: they cover the code between Begin and End, and a signal
    // arrives asynchronously; ThreadSanitizer lifts them in handlers too, compiler-rt's
    // signal_sync2): lifted for its duration, its computation event closed before they return.
    ThreadState* t = tls_state;
    const bool ignoring =
        t != nullptr && t->guard == 0 &&
        (t->ignore_access_kinds != 0 || t->ignore_sync_depth != 0 || t->ignore_reads_depth != 0 ||
         t->ignore_writes_depth != 0 || t->sync_modelled_above != 0);
    const u8 kinds = ignoring ? t->ignore_access_kinds : 0;
    const u32 reads = ignoring ? t->ignore_reads_depth : 0;
    const u32 writes = ignoring ? t->ignore_writes_depth : 0;
    const u32 syncs = ignoring ? t->ignore_sync_depth : 0;
    const u32 modelled = ignoring ? t->sync_modelled_above : 0; // a GLib lock's wait (rt_glib)
    if (ignoring) {
        t->ignore_access_kinds = 0;
        t->ignore_reads_depth = t->ignore_writes_depth = t->ignore_sync_depth = 0;
        t->sync_modelled_above = 0;
    }
    if (siginfo)
        reinterpret_cast<void (*)(int, siginfo_t*, void*)>(h)(sig, info, context);
    else
        reinterpret_cast<void (*)(int)>(h)(sig);
    if (ignoring) {
        if (InterceptorScope scope(enter_attached()); scope) close_computation(t, now());
        t->ignore_access_kinds = kinds;
        t->ignore_reads_depth = reads;
        t->ignore_writes_depth = writes;
        t->ignore_sync_depth = syncs;
        t->sync_modelled_above = modelled;
        errno = saved_errno;
    }
}

namespace {

// The handler the kernel runs for a signal the program handles: deferred while the thread is
// inside the runtime (rt_deferred_signals.cpp), delivered otherwise.
void wrapper(int sig, siginfo_t* info, void* context) {
    const int saved_errno = errno;
    const bool deferred = defer_signal(tls_state, sig, info, context);
    errno = saved_errno;
    if (!deferred) deliver_signal(sig, info, context);
}

bool program_handler(const struct sigaction* act) {
    if (act == nullptr) return false;
    if (act->sa_flags & SA_SIGINFO) return true;
    return act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN;
}

int install(int sig, const struct sigaction* act, struct sigaction* old, u64 pc) {
    auto real = REAL(sigaction);
    if (real == nullptr) {
        errno = ENOSYS;
        return -1;
    }
    if (sig <= 0 || sig >= kMaxSignal ||
        g_state.load(std::memory_order_acquire) != RtState::Ready || from_runtime(pc))
        return real(sig, act, old);
    void* previous = g_handler[sig].load(std::memory_order_acquire);
    const bool previous_siginfo = g_siginfo[sig].load(std::memory_order_relaxed);
    int r;
    if (program_handler(act)) {
        release_signal_object(handler_object(sig), pc); // the installation -> the handler
        struct sigaction wrapped = *act;
        wrapped.sa_flags |= SA_SIGINFO;
        wrapped.sa_sigaction = wrapper;
        void* h = (act->sa_flags & SA_SIGINFO) ? reinterpret_cast<void*>(act->sa_sigaction)
                                               : reinterpret_cast<void*>(act->sa_handler);
        g_siginfo[sig].store((act->sa_flags & SA_SIGINFO) != 0, std::memory_order_relaxed);
        g_handler[sig].store(h, std::memory_order_release);
        r = real(sig, &wrapped, old);
    } else {
        r = real(sig, act, old);
        if (r == 0 && act != nullptr) g_handler[sig].store(nullptr, std::memory_order_release);
    }
    if (r == 0 && old != nullptr && (old->sa_flags & SA_SIGINFO) && old->sa_sigaction == wrapper) {
        // show the program its own handler
        if (previous_siginfo) {
            old->sa_sigaction = reinterpret_cast<void (*)(int, siginfo_t*, void*)>(previous);
        } else {
            old->sa_flags &= ~SA_SIGINFO;
            old->sa_handler = reinterpret_cast<void (*)(int)>(previous);
        }
    }
    return r;
}

// The kernel's struct sigaction (rt_sigaction's layout, not the C library's).
struct KernelSigaction {
    void* handler;
    unsigned long flags;
    void (*restorer)();
    u64 mask;
};

using kill_fn = int (*)(pid_t, int);
using raise_fn = int (*)(int);
using pthread_kill_fn = int (*)(pthread_t, int);
using sigqueue_fn = int (*)(pid_t, int, const union sigval);
using pthread_sigqueue_fn = int (*)(pthread_t, int, const union sigval);
using alarm_fn = unsigned (*)(unsigned);
FRT_DECLARE_REAL_TYPED(kill, kill_fn);
FRT_DECLARE_REAL_TYPED(raise, raise_fn);
FRT_DECLARE_REAL_TYPED(pthread_kill, pthread_kill_fn);
FRT_DECLARE_REAL_TYPED(sigqueue, sigqueue_fn);
FRT_DECLARE_REAL_TYPED(pthread_sigqueue, pthread_sigqueue_fn);
FRT_DECLARE_REAL_TYPED(alarm, alarm_fn);
using sigwait_fn = int (*)(const sigset_t*, int*);
using sigwaitinfo_fn = int (*)(const sigset_t*, siginfo_t*);
using sigtimedwait_fn = int (*)(const sigset_t*, siginfo_t*, const struct timespec*);
FRT_DECLARE_REAL_TYPED(sigwait, sigwait_fn);
FRT_DECLARE_REAL_TYPED(sigwaitinfo, sigwaitinfo_fn);
FRT_DECLARE_REAL_TYPED(sigtimedwait, sigtimedwait_fn);

} // namespace

bool frt::wrap_library_handler(int sig) {
    if (sig <= 0 || sig >= kMaxSignal) return false;
    KernelSigaction current{};
    if (system_call(SYS_rt_sigaction, sig, nullptr, &current, sizeof current.mask) != 0)
        return false;
    auto* const mine = reinterpret_cast<void*>(wrapper);
    if (current.handler == mine) return true;
    if (current.handler == reinterpret_cast<void*>(SIG_DFL) ||
        current.handler == reinterpret_cast<void*>(SIG_IGN))
        return false;
    g_siginfo[sig].store((current.flags & SA_SIGINFO) != 0, std::memory_order_relaxed);
    g_handler[sig].store(current.handler, std::memory_order_release);
    KernelSigaction wrapped = current; // the library's flags, mask and restorer
    wrapped.handler = mine;
    wrapped.flags |= SA_SIGINFO;
    return system_call(SYS_rt_sigaction, sig, &wrapped, nullptr, sizeof wrapped.mask) == 0;
}

void frt::signal_accepted(int sig, u64 pc) {
    if (sig <= 0 || sig >= kMaxSignal) return;
    InterceptorScope scope(enter_call(pc));
    if (scope && find_object(fmt::kObjSignal, signal_object(sig)) != nullptr)
        acquire_now(scope.thread(), fmt::kObjSignal, signal_object(sig), pc);
}

FRT_EXPORT int sigaction(int sig, const struct sigaction* act, struct sigaction* old) {
    return install(sig, act, old, FRT_CALLER());
}

FRT_EXPORT int kill(pid_t pid, int sig) {
    signal_sent(sig, FRT_CALLER());
    return REAL(kill)(pid, sig);
}
FRT_EXPORT int raise(int sig) {
    signal_sent(sig, FRT_CALLER());
    return REAL(raise)(sig);
}
FRT_EXPORT int pthread_kill(pthread_t thread, int sig) {
    signal_sent(sig, FRT_CALLER());
    return REAL(pthread_kill)(thread, sig);
}
FRT_EXPORT int sigqueue(pid_t pid, int sig, const union sigval value) {
    signal_sent(sig, FRT_CALLER());
    return REAL(sigqueue)(pid, sig, value);
}
FRT_EXPORT int pthread_sigqueue(pthread_t thread, int sig, const union sigval value) {
    signal_sent(sig, FRT_CALLER());
    return REAL(pthread_sigqueue)(thread, sig, value);
}
FRT_EXPORT int tgkill(pid_t tgid, pid_t tid, int sig) {
    signal_sent(sig, FRT_CALLER());
    return static_cast<int>(system_call(SYS_tgkill, tgid, tid, sig));
}
FRT_EXPORT unsigned alarm(unsigned seconds) {
    if (seconds != 0) signal_sent(SIGALRM, FRT_CALLER());
    return REAL(alarm)(seconds);
}

FRT_EXPORT int sigwait(const sigset_t* set, int* sig) {
    sigset_t accepted; // never the runtime's exit flush signal (rt_exit_flush_reach.cpp)
    const int r = REAL(sigwait)(without_exit_flush_signal(set, accepted), sig);
    if (r == 0) signal_accepted(*sig, FRT_CALLER());
    return r;
}
FRT_EXPORT int sigwaitinfo(const sigset_t* set, siginfo_t* info) {
    sigset_t accepted; // never the runtime's exit flush signal (rt_exit_flush_reach.cpp)
    const int r = REAL(sigwaitinfo)(without_exit_flush_signal(set, accepted), info);
    if (r > 0) signal_accepted(r, FRT_CALLER());
    return r;
}
FRT_EXPORT int sigtimedwait(const sigset_t* set, siginfo_t* info, const struct timespec* timeout) {
    sigset_t accepted; // never the runtime's exit flush signal (rt_exit_flush_reach.cpp)
    const int r = REAL(sigtimedwait)(without_exit_flush_signal(set, accepted), info, timeout);
    if (r > 0) signal_accepted(r, FRT_CALLER());
    return r;
}

// --- alternate signal stacks ------------------------------------------------------------------

namespace frt {

namespace {
constexpr std::size_t kAltStackSize = 64 << 10;
struct AltStack {
    AltStack* next;
};
std::atomic<u32> g_alt_lock{0};
AltStack* g_free_alt = nullptr;
__thread void* tls_alt_stack __attribute__((tls_model("initial-exec"))) = nullptr;
} // namespace

// Gives the calling thread an alternate signal stack if it has none.
void alt_stack_attach() {
    stack_t current{};
    if (sigaltstack(nullptr, &current) != 0 || !(current.ss_flags & SS_DISABLE)) return;
    spin_lock(g_alt_lock);
    AltStack* s = g_free_alt;
    if (s != nullptr) g_free_alt = s->next;
    spin_unlock(g_alt_lock);
    void* mem = s;
    if (mem == nullptr) {
        mem = mmap(nullptr, kAltStackSize, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (mem == MAP_FAILED) return;
    }
    stack_t ss{};
    ss.ss_sp = mem;
    ss.ss_size = kAltStackSize;
    if (sigaltstack(&ss, nullptr) == 0) tls_alt_stack = mem;
}

// The thread ends: its alternate stack (if the runtime gave it one) goes back to the pool.
void alt_stack_detach() {
    void* mem = tls_alt_stack;
    if (mem == nullptr) return;
    stack_t off{};
    off.ss_flags = SS_DISABLE;
    if (sigaltstack(&off, nullptr) != 0) return;
    tls_alt_stack = nullptr;
    auto* s = static_cast<AltStack*>(mem);
    spin_lock(g_alt_lock);
    s->next = g_free_alt;
    g_free_alt = s;
    spin_unlock(g_alt_lock);
}

} // namespace frt

// The main thread's alternate stack (threads get theirs in thread_start).
__attribute__((constructor)) static void main_alt_stack() {
    frt::alt_stack_attach();
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(sigaction)
FRT_INTERCEPTOR_ALIAS(signal)
FRT_INTERCEPTOR_ALIAS(kill)
FRT_INTERCEPTOR_ALIAS(sigwait)
FRT_INTERCEPTOR_ALIAS(sigwaitinfo)
FRT_INTERCEPTOR_ALIAS(sigtimedwait)
FRT_INTERCEPTOR_ALIAS(raise)
FRT_INTERCEPTOR_ALIAS(pthread_kill)
FRT_INTERCEPTOR_ALIAS(sigqueue)
FRT_INTERCEPTOR_ALIAS(pthread_sigqueue)
FRT_INTERCEPTOR_ALIAS(tgkill)
FRT_INTERCEPTOR_ALIAS(alarm)

int frt::real_sigaction(int sig, const struct sigaction* act, struct sigaction* old) {
    return call_real_or_enosys(REAL(sigaction), sig, act, old);
}

// The other names a handler is installed under (eighteenth session): glibc makes each call its
// own sigaction inside, unseen, so the handler ran unwrapped (no Acquire of the installation: a
// false race with what the program wrote before installing it; not deferred inside the runtime).
//   bsd_signal             signal's BSD semantics (glibc's signal is bsd_signal)
//   __sysv_signal, sysv_signal
//                          System V semantics: reset to the default on delivery, the signal not
//                          blocked in its handler, no restart; <signal.h> redirects `signal` to
//                          __sysv_signal when the program is built for strict ISO C (-std=c11)
//   sigset                 (XSI, withdrawn) flags 0, the signal unblocked after the installation;
//                          SIG_HOLD blocks it and installs nothing; returns SIG_HOLD when the
//                          signal was blocked, else the previous disposition
// The previous handler they return is the program's, never the wrapper.
namespace {

sighandler_t installed_as(int sig, sighandler_t handler, int flags, bool mask_self, u64 pc) {
    if (handler == SIG_ERR || sig <= 0 || sig >= kMaxSignal) {
        errno = EINVAL;
        return SIG_ERR;
    }
    struct sigaction act {};
    act.sa_handler = handler;
    sigemptyset(&act.sa_mask);
    if (mask_self) sigaddset(&act.sa_mask, sig);
    act.sa_flags = flags;
    struct sigaction old {};
    if (install(sig, &act, &old, pc) != 0) return SIG_ERR;
    return old.sa_handler; // one union with sa_sigaction in glibc: the previous handler either way
}

// What sig's handler slot shows the program: the program's handler in place of the wrapper.
sighandler_t program_disposition(int sig, sighandler_t shown) {
    if (reinterpret_cast<void*>(shown) != reinterpret_cast<void*>(wrapper)) return shown;
    return reinterpret_cast<sighandler_t>(g_handler[sig].load(std::memory_order_acquire));
}

using sigset_fn = sighandler_t (*)(int, sighandler_t);
FRT_DECLARE_REAL_TYPED(sigset, sigset_fn);

} // namespace

extern "C" sighandler_t bsd_signal(int sig, sighandler_t handler); // (not in <signal.h> here)

// glibc's signal(): BSD semantics
FRT_EXPORT sighandler_t signal(int sig, sighandler_t handler) {
    return installed_as(sig, handler, SA_RESTART, true, FRT_CALLER());
}
FRT_EXPORT sighandler_t bsd_signal(int sig, sighandler_t handler) {
    return installed_as(sig, handler, SA_RESTART, true, FRT_CALLER());
}
FRT_EXPORT sighandler_t __sysv_signal(int sig, sighandler_t handler) {
    return installed_as(sig, handler, SA_RESETHAND | SA_NODEFER, false, FRT_CALLER());
}
FRT_EXPORT sighandler_t sysv_signal(int sig, sighandler_t handler) {
    return installed_as(sig, handler, SA_RESETHAND | SA_NODEFER, false, FRT_CALLER());
}
FRT_EXPORT sighandler_t sigset(int sig, sighandler_t disposition) {
    const u64 pc = FRT_CALLER();
    if (disposition == SIG_HOLD || sig <= 0 || sig >= kMaxSignal) {
        auto real = REAL(sigset);
        if (real == nullptr) {
            errno = ENOSYS;
            return SIG_ERR;
        }
        const sighandler_t r = real(sig, disposition);
        return sig > 0 && sig < kMaxSignal ? program_disposition(sig, r) : r;
    }
    const sighandler_t previous = installed_as(sig, disposition, 0, false, pc);
    if (previous == SIG_ERR) return SIG_ERR;
    u64 unblock = 1ull << (sig - 1);
    u64 before = 0;
    if (system_call(SYS_rt_sigprocmask, SIG_UNBLOCK, &unblock, &before, sizeof before) != 0)
        return SIG_ERR;
    return (before & unblock) != 0 ? SIG_HOLD : previous;
}

FRT_INTERCEPTOR_ALIAS(bsd_signal)
FRT_INTERCEPTOR_ALIAS(__sysv_signal)
FRT_INTERCEPTOR_ALIAS(sysv_signal)
FRT_INTERCEPTOR_ALIAS(sigset)
