// POSIX message queues (mq_overview(7)), as the kernel orders them. On Linux a message queue
// descriptor is a file descriptor (of the mqueue file system), so the descriptor model of
// rt_fd.cpp is theirs too:
//   mq_open            hands out a descriptor (a new incarnation of its number) whose open file
//                      description is the queue's, found by the queue's inode: every descriptor
//                      of one queue shares it, whichever mq_open made it (a queue removed with
//                      mq_unlink and made again under its name is a new inode, a new queue).
//                      With O_CREAT it reads the attributes given.
//   mq_send, mq_timedsend
//                      a send: the use of the descriptor, the read of the message, the Release
//                      of this writer's object of the message's priority (and of every
//                      priority's, for readiness reports), and of the ticket the send takes in
//                      its priority's channel (rt_mq_matching.hpp), before the call (mq_timedsend
//                      also reads its timeout).
//   mq_receive, mq_timedreceive
//                      returning a message of priority p: a receive: the use of the
//                      descriptor, the write of the message's bytes and of the priority, and
//                      the Acquire of the send whose message it is: the k-th receive of p gets
//                      the k-th message sent with p (FIFO within a priority), the Release of
//                      ticket k, when the runtime can tell k; otherwise (overlapping sends of p
//                      or receives of the queue, messages of another process) of every writer
//                      object of priority p so far. A message of another priority cannot be the
//                      one received. A failed receive is only a use.
//   mq_getattr, mq_setattr
//                      a use of the descriptor; the attributes given are read, those returned
//                      written.
//   mq_close           a close (a write of the descriptor: racing with a send or a receive on
//                      it is a race).
//   mq_unlink          removes the name only (the queue lives until its last descriptor is
//                      closed): no effect on memory, not interposed.
//   mq_notify          a use of the descriptor; it registers for the arrival of a message at
//                      the empty queue. SIGEV_THREAD: the C library runs the function on a thread
//                      of its own; it runs through a notification slot (rt_helper_threads.cpp)
//                      that the registration releases. SIGEV_SIGNAL: the kernel sends the
//                      signal. While a registration is in effect, every send to the queue
//                      releases it (which send triggered the notification is not known: the
//                      first one to find the queue empty with no receiver waiting): the slot,
//                      merging, which the notification thread acquires; or the signal, as kill
//                      sends it, which sigwait & co. and a signalfd read acquire when they
//                      accept it (rt_signals.cpp; a handler is asynchronous and acquires
//                      nothing). A NULL event removes the registration. The kernel removes it
//                      when it notifies: a SIGEV_THREAD registration is forgotten when its
//                      notification starts, so later sends release nothing to the next one; a
//                      SIGEV_SIGNAL one is kept until the program registers again or removes it
//                      (the runtime does not see the signal's delivery: over-ordering only).
// kQueues queues per process are modelled (later ones: each descriptor is its own description).
// ThreadSanitizer does not intercept the mq_* functions: it orders none of this.
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "rt_fd.hpp"
#include "rt_helper_threads.hpp"
#include "rt_mq_matching.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_signals.hpp"
#include "rt_system.hpp"

using namespace frt;
namespace fmt = firstrace::format;

namespace {

FRT_DECLARE_REAL(mq_open);
FRT_DECLARE_REAL(mq_send);
FRT_DECLARE_REAL(mq_timedsend);
FRT_DECLARE_REAL(mq_receive);
FRT_DECLARE_REAL(mq_timedreceive);
FRT_DECLARE_REAL(mq_getattr);
FRT_DECLARE_REAL(mq_setattr);
FRT_DECLARE_REAL(mq_close);
FRT_DECLARE_REAL(mq_notify);
using mq_open_2_fn = mqd_t (*)(const char*, int);
FRT_DECLARE_REAL_TYPED(__mq_open_2, mq_open_2_fn);

// A queue the process opened: its inode, its notification registration (none, a signal, or a
// notification slot, with the program's function and value), and what the FIFO matching of
// receives to sends needs to know about its receives.
struct Queue {
    std::atomic<u64> inode;
    std::atomic<int> signal; // > 0: SIGEV_SIGNAL with it
    std::atomic<NotificationSlot*> slot;
    std::atomic<NotificationSlot*> last_slot; // reused when the queue registers again
    std::atomic<void (*)(union sigval)> function;
    std::atomic<void*> value;
    mq::QueueCounters receives;
};
constexpr u32 kQueues = 1024;
Queue g_queues[kQueues];

// The sends and receives of one priority of one queue (a channel), matched by FIFO position
// (rt_mq_matching.hpp): a send releases its ticket's object, the receive that gets its message
// acquires it; when the position is not known, a receive acquires every send of its priority
// (the writer objects, rt_fd.cpp, which every send releases too).
struct Channel {
    std::atomic<u64> key; // queue * kPriorities + priority + 1; 0: free
    mq::ChannelCounters counters;
};
constexpr u32 kPriorities = 1u << 15; // MQ_PRIO_MAX on Linux
constexpr u32 kChannels = 4096;
constexpr u64 kTicketObjects = 256; // per channel, reused cyclically: a ticket's object is
                                    // replaced after kTicketObjects more sends
Channel g_channels[kChannels];

// The channel of (queue n, priority); null when the table is full (every receive then acquires
// every send of the priority).
Channel* channel(u32 n, unsigned priority) {
    const u64 key = static_cast<u64>(n) * kPriorities + priority % kPriorities + 1;
    for (u32 i = 0, s = static_cast<u32>(hash64(key) % kChannels); i < 64;
         ++i, s = (s + 1) % kChannels) {
        u64 seen = g_channels[s].key.load(std::memory_order_acquire);
        if (seen == 0 &&
            g_channels[s].key.compare_exchange_strong(seen, key, std::memory_order_acq_rel))
            return &g_channels[s];
        if (seen == key) return &g_channels[s];
    }
    return nullptr;
}

// The object ticket t of channel c releases: kObjFile, above every writer object (rt_fd.cpp's
// are below 2^63).
const void* ticket_object(const Channel* c, u64 t) {
    const u64 index = static_cast<u64>(c - g_channels);
    return reinterpret_cast<const void*>(u64{3} << 62 | index << 20 | t % kTicketObjects);
}

// The queue's number for an inode, the first descriptor of it making it (fd::kNoQueue: full).
u32 queue_number(u64 inode) {
    for (u32 i = 0, s = static_cast<u32>(hash64(inode) % kQueues); i < kQueues;
         ++i, s = (s + 1) % kQueues) {
        u64 seen = g_queues[s].inode.load(std::memory_order_acquire);
        if (seen == 0 &&
            g_queues[s].inode.compare_exchange_strong(seen, inode, std::memory_order_acq_rel))
            return s;
        if (seen == inode) return s;
    }
    return fd::kNoQueue;
}

// mq_open returned q: a descriptor of the queue its inode names. A queue that holds messages when
// the process first opens it has messages of another process: its receives are not matched.
mqd_t opened(mqd_t q, u64 pc) {
    if (q < 0) return q;
    const int saved_errno = errno;
    struct stat st {};
    const bool known = system_call(SYS_fstat, q, &st) == 0 && st.st_ino != 0;
    const u32 n = known ? queue_number(static_cast<u64>(st.st_ino)) : fd::kNoQueue;
    struct mq_attr attr {};
    if (n < kQueues &&
        (system_call(SYS_mq_getsetattr, q, nullptr, &attr) != 0 || attr.mq_curmsgs != 0))
        g_queues[n].receives.unmatched.store(true);
    errno = saved_errno;
    return known ? fd::queue_opened(q, n, pc) : fd::created(q, pc);
}

// The registration's Release, before a send to the queue: the notification may be the one this
// send triggers. The kernel removes a registration when it notifies: a SIGEV_THREAD one is
// forgotten when its notification starts (queue_notified), a SIGEV_SIGNAL one stays (the runtime
// does not see the signal's delivery; over-ordering only).
void notification_released(const Queue* queue, u64 pc) {
    if (queue == nullptr) return;
    if (const int sig = queue->signal.load(std::memory_order_relaxed); sig > 0)
        signal_sent(sig, pc);
    if (const NotificationSlot* slot = queue->slot.load(std::memory_order_acquire))
        release_notification_slot(slot, pc);
}

// A queue's SIGEV_THREAD notification, on the C library's thread, after the slot's Acquire: the
// kernel removed the registration when it notified, so later sends release nothing to it; then
// the program's function.
void queue_notified(union sigval value) {
    auto* queue = static_cast<Queue*>(value.sival_ptr);
    const auto function = queue->function.load(std::memory_order_acquire);
    union sigval program_value;
    program_value.sival_ptr = queue->value.load(std::memory_order_relaxed);
    queue->slot.store(nullptr, std::memory_order_release);
    function(program_value);
}

Queue* queue_of(mqd_t q) {
    const u32 n = fd::queue_of(q);
    return n < kQueues ? &g_queues[n] : nullptr;
}

// A send of priority on q, around the real call `send` (which returns 0 or -1): the descriptor
// model's send (every writer object), the Release of the channel's ticket, and of the
// notification registration.
template <class Send>
int send_message(mqd_t q, const char* msg, size_t n, unsigned priority, u64 pc, Send send) {
    Queue* queue = queue_of(q);
    Channel* c = queue != nullptr ? channel(static_cast<u32>(queue - g_queues), priority) : nullptr;
    u64 ticket = 0;
    if (c != nullptr) {
        ticket = mq::send_started(c->counters);
        if (InterceptorScope scope(enter_call(pc)); scope)
            release_now(scope.thread(), fmt::kObjFile, ticket_object(c, ticket), pc, false);
    }
    fd::before_send(q, pc, msg, n, priority);
    notification_released(queue, pc);
    const int r = send();
    if (c != nullptr) mq::send_finished(c->counters, ticket, r == 0);
    return r;
}

// The bytes a call reads or writes in the program's memory.
void bytes(const void* p, u64 n, bool write, u64 pc) {
    if (p == nullptr) return;
    if (InterceptorScope scope(enter_call(pc)); scope)
        library_access(scope.thread(), pc, p, n, write);
}

// A receive around the real call `receive` (bytes of a message, stored at buf, its priority at
// *prio): the use of q, the Acquire of the send it matched (or of every send of its priority),
// the writes of the message and the priority.
template <class Receive>
ssize_t receive_message(mqd_t q, char* buf, unsigned* prio, u64 pc, Receive receive) {
    Queue* queue = queue_of(q);
    if (queue != nullptr) mq::receive_started(queue->receives);
    unsigned priority = 0;
    const ssize_t r = receive(&priority);
    if (r >= 0 && prio != nullptr) *prio = priority;
    Channel* c = nullptr;
    mq::Match match{0, false};
    if (queue != nullptr) {
        if (r >= 0) c = channel(static_cast<u32>(queue - g_queues), priority);
        if (c != nullptr)
            match = mq::message_received(queue->receives, c->counters, kTicketObjects);
        mq::receive_finished(queue->receives);
    }
    if (match.exact) {
        fd::descriptor_used(q, pc);
        if (InterceptorScope scope(enter_call(pc)); scope)
            acquire_now(scope.thread(), fmt::kObjFile, ticket_object(c, match.position), pc);
    } else {
        fd::after_receive(q, pc, r >= 0 ? 1 : -1, priority); // a message (0: end of file)
    }
    if (r >= 0) {
        fd::received_into(buf, r, pc);
        bytes(prio, sizeof *prio, true, pc);
    }
    return r;
}

} // namespace

FRT_EXPORT mqd_t mq_open(const char* name, int oflag, ...) {
    mode_t mode = 0;
    struct mq_attr* attr = nullptr;
    if (oflag & O_CREAT) {
        va_list ap;
        va_start(ap, oflag);
        mode = va_arg(ap, mode_t);
        attr = va_arg(ap, struct mq_attr*);
        va_end(ap);
        bytes(attr, sizeof *attr, false, FRT_CALLER());
    }
    return opened(call_real_or_enosys(REAL(mq_open), name, oflag, mode, attr), FRT_CALLER());
}

FRT_EXPORT mqd_t __mq_open_2(const char* name, int oflag) {
    return opened(call_real_or_enosys(REAL(__mq_open_2), name, oflag), FRT_CALLER());
}

FRT_EXPORT int mq_send(mqd_t q, const char* msg, size_t n, unsigned priority) {
    return send_message(q, msg, n, priority, FRT_CALLER(),
                        [&] { return call_real_or_enosys(REAL(mq_send), q, msg, n, priority); });
}

FRT_EXPORT int mq_timedsend(mqd_t q, const char* msg, size_t n, unsigned priority,
                            const struct timespec* timeout) {
    bytes(timeout, sizeof *timeout, false, FRT_CALLER());
    return send_message(q, msg, n, priority, FRT_CALLER(), [&] {
        return call_real_or_enosys(REAL(mq_timedsend), q, msg, n, priority, timeout);
    });
}

FRT_EXPORT ssize_t mq_receive(mqd_t q, char* buf, size_t n, unsigned* prio) {
    return receive_message(q, buf, prio, FRT_CALLER(), [&](unsigned* priority) {
        return call_real_or_enosys(REAL(mq_receive), q, buf, n, priority);
    });
}

FRT_EXPORT ssize_t mq_timedreceive(mqd_t q, char* buf, size_t n, unsigned* prio,
                                   const struct timespec* timeout) {
    bytes(timeout, sizeof *timeout, false, FRT_CALLER());
    return receive_message(q, buf, prio, FRT_CALLER(), [&](unsigned* priority) {
        return call_real_or_enosys(REAL(mq_timedreceive), q, buf, n, priority, timeout);
    });
}

FRT_EXPORT int mq_getattr(mqd_t q, struct mq_attr* attr) {
    fd::descriptor_used(q, FRT_CALLER());
    const int r = call_real_or_enosys(REAL(mq_getattr), q, attr);
    if (r == 0) bytes(attr, sizeof *attr, true, FRT_CALLER());
    return r;
}

FRT_EXPORT int mq_setattr(mqd_t q, const struct mq_attr* attr, struct mq_attr* old) {
    fd::descriptor_used(q, FRT_CALLER());
    bytes(attr, sizeof *attr, false, FRT_CALLER());
    const int r = call_real_or_enosys(REAL(mq_setattr), q, attr, old);
    if (r == 0) bytes(old, sizeof *old, true, FRT_CALLER());
    return r;
}

FRT_EXPORT int mq_close(mqd_t q) {
    fd::retired(q, FRT_CALLER());
    return call_real_or_enosys(REAL(mq_close), q);
}

FRT_EXPORT int mq_notify(mqd_t q, const struct sigevent* event) {
    const u64 pc = FRT_CALLER();
    fd::descriptor_used(q, pc);
    Queue* queue = queue_of(q);
    if (!notifies_on_thread(event)) {
        const int r = call_real_or_enosys(REAL(mq_notify), q, event);
        if (r == 0 && queue != nullptr) {
            const bool signal = event != nullptr && event->sigev_notify == SIGEV_SIGNAL;
            queue->slot.store(nullptr, std::memory_order_relaxed);
            queue->signal.store(signal ? event->sigev_signo : 0, std::memory_order_relaxed);
        }
        return r;
    }
    unordered_helper_thread();
    // The notification runs queue_notified (through the slot), which forgets the registration
    // and calls the program's function with its value.
    NotificationSlot* slot = nullptr;
    if (queue != nullptr) {
        struct sigevent own = *event;
        own.sigev_notify_function = queue_notified;
        own.sigev_value.sival_ptr = queue;
        slot = notification_slot(&own, queue->last_slot.load(std::memory_order_relaxed));
    }
    if (slot == nullptr) return call_real_or_enosys(REAL(mq_notify), q, event);
    queue->function.store(event->sigev_notify_function, std::memory_order_relaxed);
    queue->value.store(event->sigev_value.sival_ptr, std::memory_order_release);
    const struct sigevent through = through_slot(event, slot);
    release_notification_slot(slot, pc);
    const int r = call_real_or_enosys(REAL(mq_notify), q, &through);
    if (r == 0) {
        queue->last_slot.store(slot, std::memory_order_relaxed);
        queue->signal.store(0, std::memory_order_relaxed);
        queue->slot.store(slot, std::memory_order_release);
    }
    return r;
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(mq_open)
FRT_INTERCEPTOR_ALIAS(__mq_open_2)
FRT_INTERCEPTOR_ALIAS(mq_send)
FRT_INTERCEPTOR_ALIAS(mq_timedsend)
FRT_INTERCEPTOR_ALIAS(mq_receive)
FRT_INTERCEPTOR_ALIAS(mq_timedreceive)
FRT_INTERCEPTOR_ALIAS(mq_getattr)
FRT_INTERCEPTOR_ALIAS(mq_setattr)
FRT_INTERCEPTOR_ALIAS(mq_close)
FRT_INTERCEPTOR_ALIAS(mq_notify)
