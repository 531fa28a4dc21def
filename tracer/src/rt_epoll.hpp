// epoll's interest lists as the runtime keeps them (rt_epoll.cpp), for the epoll interceptors
// (rt_fd_readiness.cpp).
#pragma once

#include <sys/epoll.h>

#include "rt_internal.hpp"

namespace frt {

// A successful epoll_ctl(epfd, op, fd, event).
void epoll_interest_changed(int epfd, int op, int fd, const struct epoll_event* event);
// epoll_wait & co. on epfd returned these n events: for each, an Acquire of the writers of every
// descriptor registered in epfd with the event's data (the kernel reports it ready because of
// what was written to it).
void epoll_events_reported(int epfd, const struct epoll_event* events, int n, u64 pc);

} // namespace frt
