// Signals that arrive while their thread is inside the runtime (the guard of rt_internal.hpp
// held: an interceptor, an atomic's slow path, the access path's site update, a record being
// written). Running the program's handler there would either lose it (the guard makes its
// accesses and synchronization untraced) or let it change the runtime's tables half-way through
// an update. As ThreadSanitizer does (compiler-rt tsan_interceptors_posix.cpp, sighandler and
// ProcessPendingSignals), an asynchronous signal is deferred: the runtime's wrapper records it
// in a per-thread area (async-signal-safe: only the thread's own handlers write it) and returns;
// the handler runs, traced, as soon as the thread leaves the runtime (leave(): the end of the
// interceptor or atomic, the start of the real call of an interceptor, the end of the access
// slow path; an access on the fast path makes the next access take the slow path). It runs
// with the signal mask the kernel gave the wrapper (the handler's sa_mask and the signal
// itself, unless SA_NODEFER), with a copy of the signal's siginfo and context, and errno kept.
//
// Not deferred (run at once, untraced when the guard is held, as before):
//   - synchronous signals (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGPIPE, SIGSYS:
//     ThreadSanitizer's is_sync_signal list): the faulting instruction would fault again;
//   - a thread whose trace ended (its end record, an exit flush holding the guard for good,
//     the program finalized): it would never leave the runtime again;
//   - when the per-thread area cannot be mapped.
// Like standard signals, a second instance of a signal already deferred is merged with it.
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>

#include <cstring>

#include "rt_signals.hpp"
#include "rt_system.hpp"

namespace frt {

namespace {

constexpr int kSignals = 64; // bit sig - 1 of ThreadState::deferred_signals

struct DeferredSignal {
    siginfo_t info;
    ucontext_t context;
    sigset_t mask; // the mask the kernel set for the handler
    bool has_context;
};

bool synchronous(int sig) {
    switch (sig) {
    case SIGSEGV:
    case SIGBUS:
    case SIGILL:
    case SIGTRAP:
    case SIGABRT:
    case SIGFPE:
    case SIGPIPE:
    case SIGSYS:
        return true;
    default:
        return false;
    }
}

DeferredSignal* area_of(ThreadState* t) {
    void* area = __atomic_load_n(&t->deferred_area, __ATOMIC_ACQUIRE);
    if (area != nullptr) return static_cast<DeferredSignal*>(area);
    void* fresh = map_anonymous(kSignals * sizeof(DeferredSignal));
    if (fresh == nullptr) return nullptr;
    void* expected = nullptr;
    if (__atomic_compare_exchange_n(&t->deferred_area, &expected, fresh, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
        return static_cast<DeferredSignal*>(fresh);
    munmap(fresh, kSignals * sizeof(DeferredSignal)); // a nested handler mapped it first
    return static_cast<DeferredSignal*>(expected);
}

// A copy of the context whose floating-point state pointer points into the copy itself.
void copy_context(ucontext_t& to, const void* from) {
    std::memcpy(&to, from, sizeof to);
#if defined(__x86_64__)
    const auto* uc = static_cast<const ucontext_t*>(from);
    if (uc->uc_mcontext.fpregs != nullptr) {
        std::memcpy(&to.__fpregs_mem, uc->uc_mcontext.fpregs, sizeof to.__fpregs_mem);
        to.uc_mcontext.fpregs = &to.__fpregs_mem;
    }
#endif
}

} // namespace

bool defer_signal(ThreadState* t, int sig, const siginfo_t* info, const void* context) {
    if (t == nullptr || t->guard == 0 || sig <= 0 || sig > kSignals || synchronous(sig) ||
        t->ended || t->abandoned.load(std::memory_order_relaxed) || finalized())
        return false;
    const u64 bit = u64{1} << (sig - 1);
    if (t->deferred_signals.load(std::memory_order_relaxed) & bit) return true; // merged
    DeferredSignal* area = area_of(t);
    if (area == nullptr) return false;
    DeferredSignal& d = area[sig - 1];
    if (info != nullptr)
        std::memcpy(&d.info, info, sizeof d.info);
    else {
        std::memset(&d.info, 0, sizeof d.info);
        d.info.si_signo = sig;
    }
    d.has_context = context != nullptr;
    if (context != nullptr) copy_context(d.context, context);
    pthread_sigmask(SIG_BLOCK, nullptr, &d.mask);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    t->deferred_signals.fetch_or(bit, std::memory_order_relaxed);
    // An access on the fast path holds the guard without leaving through leave(): the next
    // access then takes the slow path, which does.
    t->budget = 1;
    return true;
}

void run_deferred_signals(ThreadState* t) {
    const int saved_errno = errno;
    const auto* area = static_cast<const DeferredSignal*>(t->deferred_area);
    u64 bits;
    while (area != nullptr && (bits = t->deferred_signals.load(std::memory_order_relaxed)) != 0) {
        const int sig = __builtin_ctzll(bits) + 1;
        DeferredSignal d;
        std::memcpy(static_cast<void*>(&d), &area[sig - 1], sizeof d);
#if defined(__x86_64__)
        if (d.has_context && d.context.uc_mcontext.fpregs != nullptr)
            d.context.uc_mcontext.fpregs = &d.context.__fpregs_mem;
#endif
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        t->deferred_signals.fetch_and(~(u64{1} << (sig - 1)), std::memory_order_relaxed);
        sigset_t old;
        pthread_sigmask(SIG_BLOCK, &d.mask, &old);
        deliver_signal(sig, &d.info, d.has_context ? &d.context : nullptr);
        pthread_sigmask(SIG_SETMASK, &old, nullptr);
    }
    errno = saved_errno;
}

} // namespace frt
