// Timers that expire through a descriptor (timerfd): the kernel counts the expirations of a
// timer that timerfd_settime armed, and a read of the descriptor returns their number.
//
//   timerfd_create    hands out a descriptor (a new incarnation, its own description).
//   timerfd_settime   arming (a non-zero it_value) is a send on the descriptor, as a write to
//                     it would be: a read that returns expirations, and an epoll_wait that
//                     reports the descriptor ready (rt_epoll.cpp), are ordered after it (the
//                     expiration the kernel counts is the arming's), so what the arming thread
//                     prepared is ordered before the waiter's use of it. A re-arming by another
//                     thread orders that thread too (it came first). Disarming sends nothing.
//                     The new value is read, the old one written.
//   timerfd_gettime   writes the value.
// As the signal timers (rt_signal_timers.cpp) and alarm; ThreadSanitizer has no model of them.
#include <sys/timerfd.h>

#include "rt_fd.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"

using namespace frt;

namespace {
FRT_DECLARE_REAL(timerfd_create);
FRT_DECLARE_REAL(timerfd_settime);
FRT_DECLARE_REAL(timerfd_gettime);

bool arms(const struct itimerspec* value) {
    return value != nullptr && (value->it_value.tv_sec != 0 || value->it_value.tv_nsec != 0);
}
} // namespace

FRT_EXPORT int timerfd_create(int clock, int flags) {
    return fd::created(REAL(timerfd_create)(clock, flags), FRT_CALLER());
}

FRT_EXPORT int timerfd_settime(int fd, int flags, const struct itimerspec* value,
                               struct itimerspec* old_value) {
    const u64 pc = FRT_CALLER();
    if (InterceptorScope scope(enter_call(pc)); scope && value != nullptr)
        library_access(scope.thread(), pc, value, sizeof *value, false);
    if (arms(value))
        fd::before_send(fd, pc, nullptr, 0);
    else
        fd::descriptor_used(fd, pc);
    const int r = REAL(timerfd_settime)(fd, flags, value, old_value);
    if (InterceptorScope scope(enter_call(pc)); scope && r == 0 && old_value != nullptr)
        library_access(scope.thread(), pc, old_value, sizeof *old_value, true);
    return r;
}

FRT_EXPORT int timerfd_gettime(int fd, struct itimerspec* value) {
    const u64 pc = FRT_CALLER();
    fd::descriptor_used(fd, pc);
    const int r = REAL(timerfd_gettime)(fd, value);
    if (InterceptorScope scope(enter_call(pc)); scope && r == 0)
        library_access(scope.thread(), pc, value, sizeof *value, true);
    return r;
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(timerfd_create)
FRT_INTERCEPTOR_ALIAS(timerfd_settime)
FRT_INTERCEPTOR_ALIAS(timerfd_gettime)
