// Waiting for descriptors to be ready (POSIX poll/select, Linux epoll), as the kernel orders
// them (rt_fd.cpp has the descriptors' model):
//
//   poll, ppoll          read the pollfd array and write it (revents); ppoll reads its timeout.
//   select, pselect      read and write each fd_set given (the first nfds bits, in whole longs);
//                        select writes the timeout (Linux stores the time not slept).
//   epoll_create(1)      hand out a descriptor (a new incarnation, its own description).
//   epoll_ctl            reads the event it registers (ADD, MOD) and, as a send on the epoll
//                        descriptor, releases it (before the call): what the registering thread
//                        did before, e.g. filling the object that data.ptr points to, happened
//                        before a thread whose epoll_wait returns events of that instance.
//   epoll_wait, epoll_pwait, epoll_pwait2
//                        returning events: a receive on the epoll descriptor (after the call,
//                        the Acquire of every registration before it), a write of the events
//                        stored, and per event the Acquire of the writers of the descriptors
//                        registered with its data (rt_epoll.cpp: the kernel reports a
//                        descriptor ready because of what was written to it; compiler-rt's
//                        Linux/epoll_norace). ThreadSanitizer's model since LLVM 16 (FdRelease
//                        in epoll_ctl, FdAcquire in epoll_wait, and of the ready descriptors).
// The masks ppoll, pselect, epoll_pwait and epoll_pwait2 set while they wait never block the
// runtime's exit flush signal (rt_exit_flush_reach.cpp). Only the program's calls, never the
// runtime's own.
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/select.h>

#include "rt_epoll.hpp"
#include "rt_fd.hpp"
#include "rt_library_call.hpp"
#include "rt_real.hpp"

using namespace frt;

namespace {

FRT_DECLARE_REAL(poll);
FRT_DECLARE_REAL(ppoll);
FRT_DECLARE_REAL(select);
FRT_DECLARE_REAL(pselect);
FRT_DECLARE_REAL(epoll_create);
FRT_DECLARE_REAL(epoll_create1);
FRT_DECLARE_REAL(epoll_ctl);
FRT_DECLARE_REAL(epoll_wait);
FRT_DECLARE_REAL(epoll_pwait);
using epoll_pwait2_fn = int (*)(int, struct epoll_event*, int, const struct timespec*,
                                const sigset_t*);
FRT_DECLARE_REAL_TYPED(epoll_pwait2, epoll_pwait2_fn);

using Waiting = LibraryCall;

// The bytes of an fd_set that select examines for nfds descriptors (whole longs, as the kernel
// copies them).
u64 fd_set_bytes(int nfds) {
    if (nfds <= 0) return 0;
    const u64 bits_per_word = 8 * sizeof(long);
    return (static_cast<u64>(nfds) + bits_per_word - 1) / bits_per_word * sizeof(long);
}
void sets_used(u64 pc, int nfds, fd_set* r, fd_set* w, fd_set* e, bool write) {
    if (Waiting c(pc); c)
        for (fd_set* s : {r, w, e})
            c.bytes(s, fd_set_bytes(nfds), write);
}

int events_received(u64 pc, int epfd, struct epoll_event* events, int r) {
    fd::after_receive(epfd, pc, r > 0 ? r : -1);
    if (r > 0) {
        if (Waiting c(pc); c) c.bytes(events, static_cast<u64>(r) * sizeof *events, true);
        epoll_events_reported(epfd, events, r, pc);
    }
    return r;
}

} // namespace

FRT_EXPORT int poll(struct pollfd* fds, nfds_t n, int timeout) {
    if (Waiting c(FRT_CALLER()); c) c.bytes(fds, n * sizeof *fds, false);
    const int r = REAL(poll)(fds, n, timeout);
    if (r >= 0)
        if (Waiting c(FRT_CALLER()); c) c.bytes(fds, n * sizeof *fds, true);
    return r;
}
FRT_EXPORT int ppoll(struct pollfd* fds, nfds_t n, const struct timespec* timeout,
                     const sigset_t* mask) {
    if (Waiting c(FRT_CALLER()); c) {
        c.bytes(fds, n * sizeof *fds, false);
        c.bytes(timeout, sizeof *timeout, false);
    }
    sigset_t reachable;
    const int r = REAL(ppoll)(fds, n, timeout, without_exit_flush_signal(mask, reachable));
    if (r >= 0)
        if (Waiting c(FRT_CALLER()); c) c.bytes(fds, n * sizeof *fds, true);
    return r;
}
FRT_EXPORT int select(int nfds, fd_set* r, fd_set* w, fd_set* e, struct timeval* timeout) {
    sets_used(FRT_CALLER(), nfds, r, w, e, false);
    const int n = REAL(select)(nfds, r, w, e, timeout);
    if (n >= 0) {
        sets_used(FRT_CALLER(), nfds, r, w, e, true);
        if (Waiting c(FRT_CALLER()); c) c.bytes(timeout, sizeof *timeout, true);
    }
    return n;
}
FRT_EXPORT int pselect(int nfds, fd_set* r, fd_set* w, fd_set* e, const struct timespec* timeout,
                       const sigset_t* mask) {
    sets_used(FRT_CALLER(), nfds, r, w, e, false);
    if (Waiting c(FRT_CALLER()); c) c.bytes(timeout, sizeof *timeout, false);
    sigset_t reachable;
    const int n = REAL(pselect)(nfds, r, w, e, timeout, without_exit_flush_signal(mask, reachable));
    if (n >= 0) sets_used(FRT_CALLER(), nfds, r, w, e, true);
    return n;
}

FRT_EXPORT int epoll_create(int size) {
    return fd::created(REAL(epoll_create)(size), FRT_CALLER());
}
FRT_EXPORT int epoll_create1(int flags) {
    return fd::created(REAL(epoll_create1)(flags), FRT_CALLER());
}
FRT_EXPORT int epoll_ctl(int epfd, int op, int fd, struct epoll_event* event) {
    const bool registers = op == EPOLL_CTL_ADD || op == EPOLL_CTL_MOD;
    fd::before_send(epfd, FRT_CALLER(), registers ? event : nullptr,
                    registers && event != nullptr ? sizeof *event : 0);
    const int r = REAL(epoll_ctl)(epfd, op, fd, event);
    if (r == 0) epoll_interest_changed(epfd, op, fd, event);
    return r;
}
FRT_EXPORT int epoll_wait(int epfd, struct epoll_event* events, int max, int timeout) {
    return events_received(FRT_CALLER(), epfd, events,
                           REAL(epoll_wait)(epfd, events, max, timeout));
}
FRT_EXPORT int epoll_pwait(int epfd, struct epoll_event* events, int max, int timeout,
                           const sigset_t* mask) {
    sigset_t reachable;
    return events_received(
        FRT_CALLER(), epfd, events,
        REAL(epoll_pwait)(epfd, events, max, timeout, without_exit_flush_signal(mask, reachable)));
}
FRT_EXPORT int epoll_pwait2(int epfd, struct epoll_event* events, int max,
                            const struct timespec* timeout, const sigset_t* mask) {
    const auto real = REAL(epoll_pwait2);
    if (real == nullptr) { // a C library older than 2.35
        errno = ENOSYS;
        return -1;
    }
    sigset_t reachable;
    return events_received(
        FRT_CALLER(), epfd, events,
        real(epfd, events, max, timeout, without_exit_flush_signal(mask, reachable)));
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(poll)
FRT_INTERCEPTOR_ALIAS(ppoll)
FRT_INTERCEPTOR_ALIAS(select)
FRT_INTERCEPTOR_ALIAS(pselect)
FRT_INTERCEPTOR_ALIAS(epoll_create)
FRT_INTERCEPTOR_ALIAS(epoll_create1)
FRT_INTERCEPTOR_ALIAS(epoll_ctl)
FRT_INTERCEPTOR_ALIAS(epoll_wait)
FRT_INTERCEPTOR_ALIAS(epoll_pwait)
FRT_INTERCEPTOR_ALIAS(epoll_pwait2)
