// The trace finished before an exec and taken up again when the exec fails (rt_exec_finish.cpp).
#pragma once

#include <errno.h>

#include "rt_internal.hpp"

namespace frt {

// Before an exec that may replace the image: every thread's events written and its process
// ended, the end line `exec`, in a way that can be undone. False when this thread did not finish
// the trace (not traced, or it ends already).
bool finish_trace_for_exec();
// After an exec that returned (it failed) when finish_trace_for_exec() was true: the trace goes
// on as though the exec had not been tried.
void resume_trace_after_failed_exec();
// In the exit flush signal's handler: true when an exec's finish sent it (then t answered: it
// parked until the exec's outcome, or it was inside the runtime and is asked again).
bool park_for_exec(ThreadState* t);
// A thread starting (before it registers): returns once no exec is pending.
void wait_for_exec_outcome();

// An exec (`exec` makes the call): the trace finished before it unless the kernel refuses it at
// its first checks (rt_exec_outcome.cpp), and taken up again when it returns.
template <class Exec> long exec_with_trace_finished(bool refused_at_first_checks, Exec exec) {
    if (refused_at_first_checks) return exec();
    const bool finished = finish_trace_for_exec();
    const long r = exec();
    if (finished) {
        const int error = errno;
        resume_trace_after_failed_exec();
        errno = error;
    }
    return r;
}

} // namespace frt
