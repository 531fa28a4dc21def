// Signals (rt_signals.cpp) and their deferral while a thread is inside the runtime
// (rt_deferred_signals.cpp).
#pragma once

#include <signal.h>
#include <time.h>

#include "rt_internal.hpp"

namespace frt {

// Runs the program's handler for sig as the kernel would have (its Acquire of the signal
// first, annotated ignore regions lifted, errno kept): at delivery, or later when deferred.
void deliver_signal(int sig, siginfo_t* info, void* context);

// Signal sig is sent at pc (kill & co., a message queue's notification, rt_mq.cpp): the Release
// that its synchronous acceptance acquires.
void signal_sent(int sig, u64 pc);
// The same by a thread (or logical process) already inside the runtime (the guard held).
void signal_sent(ThreadState* t, int sig, u64 pc);

// The calling thread accepted signal sig synchronously at pc (sigwait & co. returned it, or a
// read of a signalfd, rt_fd.cpp): the Acquire of its sends.
void signal_accepted(int sig, u64 pc);

// libc's sigaction, for the runtime's own handlers (rt_exit.cpp): not whatever `sigaction` the
// executable defines (clang's static UBSan runtime intercepts it there and, called before it has
// initialised, installs nothing). -1 with ENOSYS when the C library has none.
int real_sigaction(int sig, const struct sigaction* act, struct sigaction* old);
// A POSIX timer was created with this sigevent (rt_signal_timers.cpp): a signal-notifying one
// keeps its signal, which arming it then sends (signal_timer_armed, at timer_settime).
void signal_timer_created(timer_t timer, const struct sigevent* event);
void signal_timer_armed(timer_t timer, const struct itimerspec* value, u64 pc);

// The C library installed a handler of its own for sig, behind the interposed sigaction (glibc's
// cancellation signal, rt_async_cancel.cpp): from now on it runs through the runtime's wrapper,
// deferred while the thread is inside the runtime, as a program's handler. False when sig has no
// handler installed or the kernel refused.
bool wrap_library_handler(int sig);
// A program's handler for sig arrived on thread t: true when it is deferred (t is inside the
// runtime; the handler then runs when t leaves it), false when it must run now.
bool defer_signal(ThreadState* t, int sig, const siginfo_t* info, const void* context);

} // namespace frt
