// Futexes the program drives itself through syscall() (futex(2), futex_waitv(2)): a hand-made
// lock, event, condition variable or one-shot flag whose waiting side sleeps in the kernel. The
// kernel takes the futex's hash-bucket lock in every wait (to compare the word with the expected
// value) and in every call that wakes or moves waiters, so what a thread did before such a call
// happens before a wait that returns after it:
//   FUTEX_WAKE, FUTEX_WAKE_BITSET, FUTEX_UNLOCK_PI, futex_wake
//       a Release on kObjFutex at the word, before the call, merging (release_now): a waiter
//       is ordered after every earlier wake too, since which wake woke it is not known;
//   FUTEX_WAKE_OP
//       a Release on both words; the kernel also modifies the second word (an atomic
//       read-modify-write of its 4 bytes, acq_rel: a program that reads it with an acquire load
//       synchronizes with it, a plain access of it races with it);
//   FUTEX_REQUEUE, FUTEX_CMP_REQUEUE, FUTEX_CMP_REQUEUE_PI, futex_requeue
//       a Release on both words, and the link "waiters of the first word may be woken at the
//       second": a waiter moved there returns from its wait on the first word when a wake of
//       the second finds it, so a wait on a word acquires the words it was requeued to as well;
//   FUTEX_WAIT, FUTEX_WAIT_BITSET, futex_wait returning 0 (woken) or EAGAIN (the word had
//   changed), FUTEX_LOCK_PI, FUTEX_LOCK_PI2, FUTEX_TRYLOCK_PI returning 0
//       an Acquire on kObjFutex at the word (and its requeue targets) after the call, when a
//       wake of it was recorded;
//   FUTEX_WAIT_REQUEUE_PI returning 0
//       as a wait, and the Acquire of the PI lock it returns holding (the second word);
//   futex_waitv returning index i
//       the Acquire of waiter i's word (EAGAIN: of every word, one of them had changed); the
//       array of waiters is read.
// The links are kept in a fixed table (kRequeueLinks pairs, never removed): a requeue once
// recorded orders every later waiter of that word after the target's wakes too (over-ordering
// only, as the merging Release already does); a full table drops new links (their waiters are
// then not ordered after the target's wakes). ThreadSanitizer does not intercept syscall() and
// orders nothing here. libstdc++ reaches the kernel the same way for std::atomic::wait/notify,
// std::latch, std::barrier, the C++20 semaphores and std::future (a future made ready at a
// thread's exit is woken only through it): their waits that sleep are ordered after the notify
// that woke them.
#include <errno.h>
#include <linux/futex.h>
#include <sys/syscall.h>

#include "rt_atomic_model.hpp"
#include "rt_record.hpp"
#include "rt_syscall.hpp"
#include "rt_system.hpp"

using namespace frt;
namespace fmt = firstrace::format;

namespace {

#ifndef FUTEX_LOCK_PI2
#define FUTEX_LOCK_PI2 13
#endif
// The futex2 system calls (Linux 5.16: futex_waitv; 6.7: the others), absent from older headers.
constexpr long kSysFutexWaitv = 449;
constexpr long kSysFutexWake = 454;
constexpr long kSysFutexWait = 455;
constexpr long kSysFutexRequeue = 456;
constexpr long kFutexWaitvMax = 128; // FUTEX_WAITV_MAX: more is EINVAL

// struct futex_waitv of <linux/futex.h> (Linux 5.16), kept here for older headers.
struct FutexWaiter {
    u64 val;
    u64 uaddr;
    u32 flags;
    u32 reserved;
};

const void* word(u64 address) {
    return reinterpret_cast<const void*>(address);
}

enum class FutexOp { Unmodelled, Wake, WakeOp, Requeue, Wait, Lock, WaitRequeuePi, WaitMany };

FutexOp classify(long number, long op) {
    if (number == kSysFutexWaitv) return FutexOp::WaitMany;
    if (number == kSysFutexWake) return FutexOp::Wake;
    if (number == kSysFutexWait) return FutexOp::Wait;
    if (number == kSysFutexRequeue) return FutexOp::Requeue;
    if (number != SYS_futex) return FutexOp::Unmodelled;
    switch (static_cast<int>(op) & FUTEX_CMD_MASK) {
    case FUTEX_WAKE:
    case FUTEX_WAKE_BITSET:
    case FUTEX_UNLOCK_PI:
        return FutexOp::Wake;
    case FUTEX_WAKE_OP:
        return FutexOp::WakeOp;
    case FUTEX_REQUEUE:
    case FUTEX_CMP_REQUEUE:
    case FUTEX_CMP_REQUEUE_PI:
        return FutexOp::Requeue;
    case FUTEX_WAIT:
    case FUTEX_WAIT_BITSET:
        return FutexOp::Wait;
    case FUTEX_LOCK_PI:
    case FUTEX_LOCK_PI2:
    case FUTEX_TRYLOCK_PI:
        return FutexOp::Lock;
    case FUTEX_WAIT_REQUEUE_PI:
        return FutexOp::WaitRequeuePi;
    default:
        return FutexOp::Unmodelled;
    }
}

// --- requeue links ------------------------------------------------------------------------------

// (from, to): waiters of `from` were moved to `to` once. Open addressing by `from`, linear probing;
// an entry is claimed by its `from` (CAS from 0) and valid once `to` is set.
struct RequeueLink {
    std::atomic<u64> from;
    std::atomic<u64> to;
};
constexpr u32 kRequeueLinks = 1024;
RequeueLink g_requeue_links[kRequeueLinks];

u32 link_slot(u64 from) {
    return static_cast<u32>(hash64(from) % kRequeueLinks);
}

void link_requeue(u64 from, u64 to) {
    if (from == to || from == 0 || to == 0) return;
    for (u32 i = 0, s = link_slot(from); i < kRequeueLinks; ++i, s = (s + 1) % kRequeueLinks) {
        RequeueLink& l = g_requeue_links[s];
        u64 f = l.from.load(std::memory_order_acquire);
        if (f == 0 && l.from.compare_exchange_strong(f, from, std::memory_order_acq_rel)) {
            l.to.store(to, std::memory_order_release);
            return;
        }
        if (f == from && l.to.load(std::memory_order_acquire) == to) return;
    }
}

// The Acquire of the word's wakes, if any was recorded.
void acquire_word(ThreadState* t, u64 address, u64 pc) {
    if (find_object(fmt::kObjFutex, word(address)) != nullptr)
        acquire_now(t, fmt::kObjFutex, word(address), pc);
}

// A wait on `address` ended: the Acquire of its wakes and of the wakes of the words its waiters
// were requeued to.
void acquire_wait(ThreadState* t, u64 address, u64 pc) {
    acquire_word(t, address, pc);
    for (u32 i = 0, s = link_slot(address); i < kRequeueLinks; ++i, s = (s + 1) % kRequeueLinks) {
        const RequeueLink& l = g_requeue_links[s];
        const u64 f = l.from.load(std::memory_order_acquire);
        if (f == 0) return;
        const u64 to = l.to.load(std::memory_order_acquire);
        if (f == address && to != 0) acquire_word(t, to, pc);
    }
}

void release_word(ThreadState* t, u64 address, u64 pc) {
    release_now(t, fmt::kObjFutex, word(address), pc, true);
}

// The two words a requeue moves waiters between: futex(2)'s uaddr and uaddr2, futex_requeue's
// two futex_waitv entries (read as the kernel will: false when it cannot read them).
bool requeue_words(long number, const long (&a)[6], u64& from, u64& to) {
    from = static_cast<u64>(a[0]);
    to = static_cast<u64>(a[4]);
    if (number != kSysFutexRequeue) return true;
    FutexWaiter w[2];
    if (!copy_call_argument(w, from, sizeof w)) return false;
    from = w[0].uaddr;
    to = w[1].uaddr;
    return true;
}

// futex_waitv's waiters (none when the kernel rejects their number).
long waiter_count(long n) {
    return n > 0 && n <= kFutexWaitvMax ? n : 0;
}

// The call, outside the runtime, keeping its errno.
struct Outcome {
    long result;
    int error;
};
Outcome call_outside(InterceptorScope& scope, long number, const long (&a)[6], SyscallFn real) {
    return scope.outside([&] {
        const long v = real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
        return Outcome{v, errno};
    });
}

long returned(Outcome o) {
    errno = o.error;
    return o.result;
}

// The Releases a modelled call makes before the kernel runs it: of the words it wakes or moves
// waiters between (and the requeue link), the array of waiters futex_waitv reads. A call that
// may wait ends the computation event before it.
void releases_before(ThreadState* t, FutexOp op, long number, const long (&a)[6], u64 pc) {
    switch (op) {
    case FutexOp::Wake:
        release_word(t, static_cast<u64>(a[0]), pc);
        return;
    case FutexOp::Requeue:
        if (u64 from, to; requeue_words(number, a, from, to)) {
            if (number == kSysFutexRequeue)
                library_access(t, pc, word(a[0]), 2 * sizeof(FutexWaiter), false);
            release_word(t, from, pc);
            release_word(t, to, pc);
            link_requeue(from, to);
        }
        return;
    case FutexOp::WakeOp:
        release_word(t, static_cast<u64>(a[0]), pc);
        release_word(t, static_cast<u64>(a[4]), pc);
        add_access_slow(t, pc, static_cast<u64>(a[4]), sizeof(u32), fmt::kAtomic | fmt::kWrite);
        return;
    case FutexOp::WaitMany:
        library_access(t, pc, word(a[0]), waiter_count(a[1]) * sizeof(FutexWaiter), false);
        [[fallthrough]];
    default:
        close_computation(t, now());
        return;
    }
}

// The Acquires of a call that returned `result` (-1 and `error` when it failed).
void acquires_after(ThreadState* t, FutexOp op, const long (&a)[6], long result, int error,
                    u64 pc) {
    const bool woken = result >= 0 || error == EAGAIN;
    if (op == FutexOp::Wait && woken) acquire_wait(t, static_cast<u64>(a[0]), pc);
    if (op == FutexOp::Lock && result == 0) acquire_word(t, static_cast<u64>(a[0]), pc);
    if (op == FutexOp::WaitRequeuePi && woken) {
        acquire_wait(t, static_cast<u64>(a[0]), pc);
        if (result == 0) acquire_word(t, static_cast<u64>(a[4]), pc);
    }
    if (op == FutexOp::WaitMany && woken) {
        const auto* w = reinterpret_cast<const FutexWaiter*>(a[0]);
        for (long i = 0; i < waiter_count(a[1]); ++i)
            if (result < 0 || i == result) acquire_wait(t, w[i].uaddr, pc);
    }
}

} // namespace

bool frt::futex_call_modelled(long number, const long (&a)[6]) {
    return classify(number, a[1]) != FutexOp::Unmodelled;
}

long frt::futex_call(long number, const long (&a)[6], SyscallFn real, u64 pc) {
    const FutexOp op = classify(number, a[1]);
    long result = 0;
    int error = 0;
    {
        InterceptorScope scope(enter_call(pc));
        if (!scope) return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
        ThreadState* t = scope.thread();
        releases_before(t, op, number, a, pc);
        if (op == FutexOp::Wake || op == FutexOp::Requeue)
            return returned(call_outside(scope, number, a, real));
        if (op != FutexOp::WakeOp) {
            const Outcome o = call_outside(scope, number, a, real);
            acquires_after(t, op, a, o.result, o.error, pc);
            return returned(o);
        }
    }
    // FUTEX_WAKE_OP: the kernel's read-modify-write of the second word, made as an atomic the
    // program could also use (release sequences, an acquire load that reads it).
    library_atomic_op(word(a[4]), {true, true, false}, pc, [&] {
        const long v = real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
        result = v;
        error = errno;
    });
    errno = error;
    return result;
}

// The hooks of a call the program makes itself (rt_syscall_hooks.cpp): the same Releases before
// and Acquires after; FUTEX_WAKE_OP's change of the second word is an atomic write of it.
void frt::futex_hook_before(long number, const long (&a)[6], u64 pc) {
    const FutexOp op = classify(number, a[1]);
    if (op == FutexOp::Unmodelled) return;
    if (InterceptorScope scope(enter_call(pc)); scope)
        releases_before(scope.thread(), op, number, a, pc);
}

void frt::futex_hook_after(long number, const long (&a)[6], long result, u64 pc) {
    const FutexOp op = classify(number, a[1]);
    if (op == FutexOp::Unmodelled) return;
    // A raw system call returns -errno; syscall() returns -1 and sets errno.
    int error = 0;
    if (result == -1) {
        error = errno;
    } else if (result < 0 && result >= -4095) {
        error = static_cast<int>(-result);
        result = -1;
    }
    const int saved = errno;
    if (InterceptorScope scope(enter_call(pc)); scope)
        acquires_after(scope.thread(), op, a, result, error, pc);
    errno = saved;
}
