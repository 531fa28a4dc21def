// epoll's interest lists: readiness as the kernel reports it (the interceptors are in
// rt_fd_readiness.cpp, which also orders epoll_ctl before the epoll_wait of that instance).
//
//   epoll_ctl(epfd, ADD/MOD, fd, ev)   registers fd in epfd's interest list with ev->data (the
//                                 tag epoll_wait hands back for fd); DEL forgets it
//   epoll_wait, epoll_pwait, epoll_pwait2 returning n > 0 events: for each event, every fd
//                                 registered in that epfd with the event's data: an Acquire of
//                                 every writer object of fd's description (rt_fd.cpp), as a
//                                 read of fd would. The kernel reports fd readable because of
//                                 what was written to it: those writes happened before the
//                                 report, so a thread that learns of a write from epoll alone,
//                                 without reading the data (an eventfd as a doorbell), is
//                                 ordered after it. (ThreadSanitizer orders it too, since LLVM
//                                 16; clang 14's does not.)
//
// The interest list is the runtime's own table: per descriptor (those rt_fd.cpp models) up to
// kSlots registrations (epfd, data). A registration is not forgotten when fd is closed (the
// kernel drops it when the last descriptor of the file is closed, which the runtime does not
// follow): a stale one can only add an Acquire of the writers of a later file on that number
// whose events carry the same data, never lose one. More than kSlots epoll instances watching
// one descriptor at once: the oldest registration is replaced (its events order nothing).
#include <errno.h>
#include <signal.h>
#include <sys/epoll.h>

#include <atomic>

#include "rt_epoll.hpp"
#include "rt_fd.hpp"
#include "rt_record.hpp"

using namespace frt;

namespace {

constexpr int kWatchedFds = 4096; // of the 2^20 descriptors modelled (rt_fd_table.cpp): a report
                                  // scans the registrations of every watched number
constexpr int kSlots = 4;
constexpr int kClaimed = -1; // a slot being filled

struct Registration {
    std::atomic<int> epfd_plus_1{0}; // 0: free
    std::atomic<u64> data{0};
};
Registration g_interest[kWatchedFds][kSlots];
std::atomic<int> g_watched_limit{0}; // every registered descriptor is below this

void registered(int epfd, int fd, u64 data) {
    if (fd < 0 || fd >= kWatchedFds || epfd < 0) return;
    Registration* slots = g_interest[fd];
    for (int i = 0; i < kSlots; ++i) {
        if (slots[i].epfd_plus_1.load(std::memory_order_acquire) == epfd + 1) { // MOD, re-ADD
            slots[i].data.store(data, std::memory_order_release);
            return;
        }
    }
    int victim = 0;
    for (int i = 0; i < kSlots; ++i) {
        int expected = 0;
        if (slots[i].epfd_plus_1.compare_exchange_strong(expected, kClaimed,
                                                         std::memory_order_acq_rel)) {
            victim = i;
            break;
        }
    }
    slots[victim].data.store(data, std::memory_order_relaxed);
    slots[victim].epfd_plus_1.store(epfd + 1, std::memory_order_release);
    int limit = g_watched_limit.load(std::memory_order_relaxed);
    while (limit <= fd &&
           !g_watched_limit.compare_exchange_weak(limit, fd + 1, std::memory_order_relaxed)) {
    }
}

void unregistered(int epfd, int fd) {
    if (fd < 0 || fd >= kWatchedFds) return;
    for (Registration& slot : g_interest[fd]) {
        int expected = epfd + 1;
        slot.epfd_plus_1.compare_exchange_strong(expected, 0, std::memory_order_acq_rel);
    }
}

} // namespace

void frt::epoll_interest_changed(int epfd, int op, int fd, const struct epoll_event* event) {
    if ((op == EPOLL_CTL_ADD || op == EPOLL_CTL_MOD) && event != nullptr)
        registered(epfd, fd, event->data.u64);
    else if (op == EPOLL_CTL_DEL)
        unregistered(epfd, fd);
}

void frt::epoll_events_reported(int epfd, const struct epoll_event* events, int n, u64 pc) {
    const int limit = g_watched_limit.load(std::memory_order_relaxed);
    for (int e = 0; e < n; ++e) {
        const u64 data = events[e].data.u64;
        for (int fd = 0; fd < limit; ++fd) {
            for (const Registration& slot : g_interest[fd]) {
                if (slot.epfd_plus_1.load(std::memory_order_acquire) == epfd + 1 &&
                    slot.data.load(std::memory_order_acquire) == data) {
                    fd::readiness_reported(fd, pc);
                    break;
                }
            }
        }
    }
}
