// Timers that expire by sending a signal: setitimer (ITIMER_REAL sends SIGALRM, ITIMER_VIRTUAL
// SIGVTALRM, ITIMER_PROF SIGPROF) and POSIX timers notifying by SIGEV_SIGNAL or
// SIGEV_THREAD_ID (timer_create with a null sigevent: SIGALRM). Arming one (a non-zero
// it_value) is a send of its signal, as alarm's is (rt_signals.cpp): the kernel sends it on
// the arming thread's behalf at the expiration, so a synchronous acceptance of it (sigwait &
// co., a signalfd read) is ordered after what that thread did before arming; an asynchronous
// handler is not (POSIX XBD 4.12, as for kill). The signal of a POSIX timer is kept per timer
// id at its creation (kSignalTimers of them, newest first: the C library reuses the ids of
// deleted timers; a later timer is armed unordered). SIGEV_THREAD timers are
// rt_helper_threads.cpp's.
#include <signal.h>
#include <sys/time.h>
#include <time.h>

#include <algorithm>
#include <atomic>

#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_signals.hpp"

using namespace frt;

namespace {

FRT_DECLARE_REAL(setitimer);

struct SignalTimer {
    std::atomic<timer_t> timer;
    std::atomic<int> signal;
    std::atomic<bool> created;
};
constexpr u32 kSignalTimers = 1024;
SignalTimer g_signal_timers[kSignalTimers];
std::atomic<u32> g_signal_timers_used{0};

int timer_signal(timer_t timer) {
    u32 i = std::min(g_signal_timers_used.load(std::memory_order_acquire), kSignalTimers);
    while (i-- > 0) {
        const SignalTimer& t = g_signal_timers[i];
        if (t.created.load(std::memory_order_acquire) &&
            t.timer.load(std::memory_order_relaxed) == timer)
            return t.signal.load(std::memory_order_relaxed);
    }
    return 0;
}

bool arms(const struct timeval& value) {
    return value.tv_sec != 0 || value.tv_usec != 0;
}
bool arms(const struct timespec& value) {
    return value.tv_sec != 0 || value.tv_nsec != 0;
}

} // namespace

void frt::signal_timer_created(timer_t timer, const struct sigevent* event) {
    int sig = SIGALRM;
    if (event != nullptr) {
        if (event->sigev_notify != SIGEV_SIGNAL && event->sigev_notify != SIGEV_THREAD_ID) return;
        sig = event->sigev_signo;
    }
    const u32 i = g_signal_timers_used.fetch_add(1, std::memory_order_relaxed);
    if (i >= kSignalTimers) return;
    SignalTimer& t = g_signal_timers[i];
    t.timer.store(timer, std::memory_order_relaxed);
    t.signal.store(sig, std::memory_order_relaxed);
    t.created.store(true, std::memory_order_release);
}

void frt::signal_timer_armed(timer_t timer, const struct itimerspec* value, u64 pc) {
    if (value == nullptr || !arms(value->it_value)) return;
    if (const int sig = timer_signal(timer); sig != 0) signal_sent(sig, pc);
}

FRT_EXPORT int setitimer(__itimer_which_t which, const struct itimerval* value,
                         struct itimerval* old) {
    if (value != nullptr && arms(value->it_value)) {
        const int sig = which == ITIMER_REAL      ? SIGALRM
                        : which == ITIMER_VIRTUAL ? SIGVTALRM
                        : which == ITIMER_PROF    ? SIGPROF
                                                  : 0;
        if (sig != 0) signal_sent(sig, FRT_CALLER());
    }
    return REAL(setitimer)(which, value, old);
}
FRT_INTERCEPTOR_ALIAS(setitimer)
