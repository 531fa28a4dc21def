// Futexes the program drives itself through syscall(SYS_futex, ...) (futex(2)): a hand-made
// lock, event or one-shot flag whose waiting side sleeps in the kernel. The kernel takes the
// futex's hash-bucket lock in FUTEX_WAIT (to compare the word with the expected value) and in
// every FUTEX_WAKE that finds a waiter, so what a thread did before a wake happens before a
// wait that returns after it:
//   FUTEX_WAKE, FUTEX_WAKE_BITSET, FUTEX_WAKE_OP (both words), FUTEX_UNLOCK_PI
//       a Release on kObjFutex at the word, before the call, merging (release_now): a waiter
//       is ordered after every earlier wake too, since which wake woke it is not known;
//   FUTEX_WAIT, FUTEX_WAIT_BITSET returning 0 (woken) or EAGAIN (the word had changed),
//   FUTEX_LOCK_PI, FUTEX_LOCK_PI2, FUTEX_TRYLOCK_PI returning 0
//       an Acquire on kObjFutex at the word after the call, when a wake of it was recorded.
// ThreadSanitizer does not intercept syscall() and orders nothing here. libstdc++ reaches the
// kernel the same way for std::atomic::wait/notify, std::latch, std::barrier, the C++20
// semaphores and std::future (a future made ready at a thread's exit is woken only through
// it): their waits that sleep are ordered after the notify that woke them. Not modelled:
// FUTEX_REQUEUE / FUTEX_CMP_REQUEUE (a waiter moved to the second word and woken there is not
// ordered after that wake), FUTEX_WAIT_REQUEUE_PI, futex_waitv.
#include <errno.h>
#include <linux/futex.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_system.hpp"

using namespace frt;
namespace fmt = firstrace::format;

namespace {
using SyscallFn = long (*)(long, ...);
FRT_DECLARE_REAL_TYPED(syscall, SyscallFn);

#ifndef FUTEX_LOCK_PI2
#define FUTEX_LOCK_PI2 13
#endif

const void* word(long address) {
    return reinterpret_cast<const void*>(address);
}

bool is_wake(int cmd) {
    return cmd == FUTEX_WAKE || cmd == FUTEX_WAKE_BITSET || cmd == FUTEX_WAKE_OP ||
           cmd == FUTEX_UNLOCK_PI;
}

bool is_wait(int cmd) {
    return cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET || cmd == FUTEX_LOCK_PI ||
           cmd == FUTEX_LOCK_PI2 || cmd == FUTEX_TRYLOCK_PI;
}

// A wait that returned after the word was woken or changed (the PI lock calls: that got the lock).
bool waited(int cmd, long result, int error) {
    if (result == 0) return true;
    return (cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET) && error == EAGAIN;
}
} // namespace

// Six arguments are read whatever the call takes, as glibc's own syscall() passes six
// registers to the kernel: the ones the call does not use are ignored by the kernel.
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
    const int cmd = static_cast<int>(a[1]) & FUTEX_CMD_MASK;
    if (number != SYS_futex || !(is_wake(cmd) || is_wait(cmd)))
        return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
    const u64 pc = FRT_CALLER();
    InterceptorScope scope(enter_call(pc));
    if (!scope) return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
    ThreadState* t = scope.thread();
    if (is_wake(cmd)) {
        release_now(t, fmt::kObjFutex, word(a[0]), pc, true);
        if (cmd == FUTEX_WAKE_OP) release_now(t, fmt::kObjFutex, word(a[4]), pc, true);
        return scope.outside([&] { return real(number, a[0], a[1], a[2], a[3], a[4], a[5]); });
    }
    close_computation(t, now());
    int error = 0;
    const long r = scope.outside([&] {
        const long v = real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
        error = errno;
        return v;
    });
    if (waited(cmd, r, error) && find_object(fmt::kObjFutex, word(a[0])) != nullptr)
        acquire_now(t, fmt::kObjFutex, word(a[0]), pc);
    errno = error;
    return r;
}
FRT_INTERCEPTOR_ALIAS(syscall)
