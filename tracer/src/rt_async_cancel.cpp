// Asynchronous cancellation (pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS)): glibc acts on
// a pthread_cancel of such a thread at once, from the handler of its cancellation signal
// (SIGCANCEL, the kernel's signal 32), which unwinds the thread wherever it is. Landing inside
// the runtime (the access path's site update, a record being written, an object's spin lock
// held), that unwind would leave the guard held (the thread's end is then never written: a
// truncated trace) or a spin lock taken (every other thread using the object hangs). So the
// cancellation signal is deferred like any signal that lands inside the runtime
// (rt_deferred_signals.cpp): it runs glibc's handler as soon as the thread leaves the runtime,
// and the thread is cancelled there, between two of its own instructions, as POSIX allows.
//
// glibc installs its handler behind the interposed sigaction, at the first pthread_cancel of
// the process (glibc >= 2.34), and sends the signal right after: too late to wrap it then. The
// first pthread_setcanceltype(ASYNCHRONOUS) therefore has glibc install it first, by cancelling
// a helper thread whose cancellation is disabled (no signal is sent; it returns normally), and
// then wraps it (rt_signals.cpp, wrap_library_handler). Deferred cancellation needs none of this:
// its cancellation points are calls, which the runtime makes outside its guard.
#include <pthread.h>
#include <sched.h>

#include <atomic>

#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_signals.hpp"

using namespace frt;

namespace {

FRT_DECLARE_REAL(pthread_setcanceltype);
FRT_DECLARE_REAL(pthread_create);
FRT_DECLARE_REAL(pthread_join);
FRT_DECLARE_REAL(pthread_cancel);

constexpr int kCancelSignal = 32; // glibc's SIGCANCEL (__SIGRTMIN)

// The helper: disables its cancellation, says so, waits to be let go. It calls nothing the
// runtime interposes (it is no thread of the program's).
struct Helper {
    std::atomic<int> step{0}; // 1: cancellation disabled, 2: let go
};
void* helper_run(void* p) {
    auto* h = static_cast<Helper*>(p);
    int old;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
    h->step.store(1, std::memory_order_release);
    while (h->step.load(std::memory_order_acquire) != 2)
        sched_yield();
    return nullptr;
}

// glibc's cancellation handler installed and wrapped, once per process.
void cancel_signal_wrapped() {
    static std::atomic<int> state{0}; // 0 not yet, 1 in progress, 2 done
    int s = state.load(std::memory_order_acquire);
    if (s != 0 || !state.compare_exchange_strong(s, 1)) {
        while (state.load(std::memory_order_acquire) == 1) // another thread is at it
            sched_yield();
        return;
    }
    if (!wrap_library_handler(kCancelSignal)) {
        Helper h;
        pthread_t helper;
        if (REAL(pthread_create)(&helper, nullptr, helper_run, &h) == 0) {
            while (h.step.load(std::memory_order_acquire) != 1)
                sched_yield();
            REAL(pthread_cancel)(helper); // installs glibc's handler; cancellation is disabled
            h.step.store(2, std::memory_order_release);
            REAL(pthread_join)(helper, nullptr);
            wrap_library_handler(kCancelSignal);
        }
    }
    state.store(2, std::memory_order_release);
}

} // namespace

FRT_EXPORT int pthread_setcanceltype(int type, int* old) {
    if (type == PTHREAD_CANCEL_ASYNCHRONOUS && g_state.load() == RtState::Ready)
        cancel_signal_wrapped();
    return REAL(pthread_setcanceltype)(type, old);
}
FRT_INTERCEPTOR_ALIAS(pthread_setcanceltype)
