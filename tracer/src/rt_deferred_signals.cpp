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
// A second instance of a standard signal already deferred is merged with it (the kernel merges
// standard signals the same way). Real-time signals queue (POSIX XSH 2.4.2: each instance sent
// with sigqueue is delivered, with its value): a further instance of one already deferred goes
// into that signal's queue (kQueued siginfos, in arrival order), and each instance runs the
// handler once, in order. Beyond kQueued pending instances the count is still kept: the extra
// ones run with the last queued siginfo (their values are lost, not their deliveries).
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

constexpr int kSignals = 64;       // bit sig - 1 of ThreadState::deferred_signals
constexpr int kFirstRealtime = 32; // the kernel's SIGRTMIN (glibc keeps 32 and 33 for itself)
constexpr int kQueued = 16;        // siginfos kept per real-time signal beyond the deferred one

struct DeferredSignal {
    siginfo_t info;
    ucontext_t context;
    sigset_t mask; // the mask the kernel set for the handler
    bool has_context;
};

// The further instances of one real-time signal deferred behind its DeferredSignal slot. Written
// by the thread's signal wrapper (which the signal's own instances do not interrupt: the kernel
// blocks the signal while its handler runs), read with every signal blocked.
struct RealtimeQueue {
    u32 head;       // the oldest queued siginfo
    u32 stored;     // siginfos in infos (at most kQueued)
    u32 repeats;    // instances beyond them without a context to hold them back: the last again
    bool held_back; // the queue filled up: the signal was blocked in the interrupted context
    siginfo_t infos[kQueued];
};

// The per-thread area: a slot per signal, then a queue per real-time signal.
struct DeferredArea {
    DeferredSignal slots[kSignals];
    RealtimeQueue queues[kSignals - kFirstRealtime + 1];
    u64 running; // bit sig - 1: a handler of sig run from run_deferred_signals is on the stack
};

// sig was blocked by queue_instance, not by the program or a running handler's mask.
bool held_back(const DeferredArea* area, int sig) {
    return sig >= kFirstRealtime && area->queues[sig - kFirstRealtime].held_back;
}

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

DeferredArea* area_of(ThreadState* t) {
    void* area = __atomic_load_n(&t->deferred_area, __ATOMIC_ACQUIRE);
    if (area != nullptr) return static_cast<DeferredArea*>(area);
    void* fresh = map_anonymous(sizeof(DeferredArea));
    if (fresh == nullptr) return nullptr;
    void* expected = nullptr;
    if (__atomic_compare_exchange_n(&t->deferred_area, &expected, fresh, false, __ATOMIC_ACQ_REL,
                                    __ATOMIC_ACQUIRE))
        return static_cast<DeferredArea*>(fresh);
    munmap(fresh, sizeof(DeferredArea)); // a nested handler mapped it first
    return static_cast<DeferredArea*>(expected);
}

void info_of(siginfo_t& to, int sig, const siginfo_t* info) {
    if (info != nullptr) {
        std::memcpy(&to, info, sizeof to);
    } else {
        std::memset(&to, 0, sizeof to);
        to.si_signo = sig;
    }
}

// Another instance of a real-time signal whose first instance is deferred: queued behind it.
// The instance that fills the queue blocks the signal in the context the wrapper returns to
// (the kernel restores the mask from it): the instances after it stay queued in the kernel, in
// order with their values, until the queue is drained (run_deferred_signals unblocks it).
void queue_instance(DeferredArea* area, int sig, const siginfo_t* info, void* context) {
    RealtimeQueue& q = area->queues[sig - kFirstRealtime];
    if (q.stored < kQueued) {
        info_of(q.infos[(q.head + q.stored) % kQueued], sig, info);
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        ++q.stored;
        if (q.stored == kQueued && context != nullptr) {
            sigaddset(&static_cast<ucontext_t*>(context)->uc_sigmask, sig);
            q.held_back = true;
        }
    } else {
        ++q.repeats;
    }
}

// After the slot of sig was copied for delivery: the next queued instance takes the slot (true),
// or there is none. Called with every signal blocked.
bool next_instance(DeferredArea* area, int sig) {
    if (sig < kFirstRealtime) return false;
    RealtimeQueue& q = area->queues[sig - kFirstRealtime];
    if (q.stored != 0) {
        std::memcpy(&area->slots[sig - 1].info, &q.infos[q.head], sizeof(siginfo_t));
        q.head = (q.head + 1) % kQueued;
        --q.stored;
        return true;
    }
    if (q.repeats != 0) { // the slot keeps the last siginfo
        --q.repeats;
        return true;
    }
    return false;
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
    if (t == nullptr || sig <= 0 || sig > kSignals || synchronous(sig) || t->ended ||
        t->abandoned.load(std::memory_order_relaxed) || finalized())
        return false;
    const u64 bit = u64{1} << (sig - 1);
    const bool pending = (t->deferred_signals.load(std::memory_order_relaxed) & bit) != 0;
    // A real-time signal queues behind its deferred instances even outside the runtime (the
    // loop of run_deferred_signals delivering them, with the signal unblocked between two):
    // delivered at once, it would overtake them (POSIX delivers one signal's instances in order).
    if (pending && sig >= kFirstRealtime) {
        queue_instance(static_cast<DeferredArea*>(t->deferred_area), sig, info,
                       const_cast<void*>(context));
        return true;
    }
    if (t->guard == 0) return false;
    if (pending) return true; // a standard signal: merged with the deferred one
    DeferredArea* area = area_of(t);
    if (area == nullptr) return false;
    DeferredSignal& d = area->slots[sig - 1];
    info_of(d.info, sig, info);
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
    auto* area = static_cast<DeferredArea*>(t->deferred_area);
    while (area != nullptr && t->deferred_signals.load(std::memory_order_relaxed) != 0) {
        // Taking the instance and its successor from the queue must not be interrupted by the
        // wrapper queueing another one (it reads the bit and appends): every signal blocked.
        sigset_t all;
        sigset_t before;
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, &before);
        // The lowest deferred signal the thread does not block now (or blocked only because
        // its queue filled up) and whose handler is not running already: a handler that
        // leaves the runtime (its own accesses do) runs only the signals its mask lets through,
        // as the kernel would deliver them; the others wait for the loop that ran it (a nested
        // run of the same signal's next instance made its instances overtake each other).
        // (`running` matters only for a signal blocked by queue_instance: the handler's own
        // mask blocks the others; a handler left by siglongjmp leaves its bit set, and the mask
        // sigsetjmp saved lets the signal through again.)
        int sig = 0;
        for (u64 bits = t->deferred_signals.load(std::memory_order_relaxed); bits != 0;
             bits &= bits - 1) {
            const int candidate = __builtin_ctzll(bits) + 1;
            const bool running = (area->running & (u64{1} << (candidate - 1))) != 0;
            if (sigismember(&before, candidate) == 0 || (held_back(area, candidate) && !running)) {
                sig = candidate;
                break;
            }
        }
        if (sig == 0) {
            pthread_sigmask(SIG_SETMASK, &before, nullptr);
            break;
        }
        DeferredSignal d;
        std::memcpy(static_cast<void*>(&d), &area->slots[sig - 1], sizeof d);
#if defined(__x86_64__)
        if (d.has_context && d.context.uc_mcontext.fpregs != nullptr)
            d.context.uc_mcontext.fpregs = &d.context.__fpregs_mem;
#endif
        if (!next_instance(area, sig)) {
            t->deferred_signals.fetch_and(~(u64{1} << (sig - 1)), std::memory_order_relaxed);
            // the queue is drained: the instances held back in the kernel come next
            if (held_back(area, sig)) {
                area->queues[sig - kFirstRealtime].held_back = false;
                sigdelset(&before, sig);
            }
        }
        // From every signal blocked straight to the handler's mask (the signal itself among
        // them, unless SA_NODEFER): a next instance arriving in between would run first.
        sigset_t during;
        sigorset(&during, &before, &d.mask);
        const u64 bit = u64{1} << (sig - 1);
        area->running |= bit;
        pthread_sigmask(SIG_SETMASK, &during, nullptr);
        deliver_signal(sig, &d.info, d.has_context ? &d.context : nullptr);
        pthread_sigmask(SIG_SETMASK, &all, nullptr);
        area->running &= ~bit;
        pthread_sigmask(SIG_SETMASK, &before, nullptr);
    }
    errno = saved_errno;
}

} // namespace frt
