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
//                      of this writer's object of the message's priority, before the call
//                      (mq_timedsend also reads its timeout).
//   mq_receive, mq_timedreceive
//                      returning a message of priority p: a receive: the use of the
//                      descriptor, the Acquire of every writer object of priority p so far, the
//                      write of the message's bytes and of the priority. The message received
//                      was sent with priority p before the receive returned, so the Acquire
//                      includes its send; it is not the message of any send of another
//                      priority (the kernel hands the oldest of the highest priority out
//                      first). A failed receive is only a use.
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
//                      after notifying; the runtime keeps it until the program registers again
//                      or removes it, so later sends release too (over-ordering only).
// kQueues queues per process are modelled (later ones: each descriptor is its own description).
// ThreadSanitizer does not intercept the mq_* functions: it orders none of this.
#include <fcntl.h>
#include <mqueue.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "rt_fd.hpp"
#include "rt_helper_threads.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_signals.hpp"
#include "rt_system.hpp"

using namespace frt;

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

// A queue the process opened: its inode, and its notification registration (none, a signal, or a
// notification slot).
struct Queue {
    std::atomic<u64> inode;
    std::atomic<int> signal; // > 0: SIGEV_SIGNAL with it
    std::atomic<NotificationSlot*> slot;
    std::atomic<NotificationSlot*> last_slot; // reused when the same function registers again
};
constexpr u32 kQueues = 1024;
Queue g_queues[kQueues];

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

// mq_open returned q: a descriptor of the queue its inode names.
mqd_t opened(mqd_t q, u64 pc) {
    if (q < 0) return q;
    struct stat st {};
    const bool known = system_call(SYS_fstat, q, &st) == 0 && st.st_ino != 0;
    if (!known) return fd::created(q, pc);
    return fd::queue_opened(q, queue_number(static_cast<u64>(st.st_ino)), pc);
}

// The registration's Release, before a send to q.
void notification_released(mqd_t q, u64 pc) {
    const u32 n = fd::queue_of(q);
    if (n >= kQueues) return;
    const Queue& queue = g_queues[n];
    if (const int sig = queue.signal.load(std::memory_order_relaxed); sig > 0) signal_sent(sig, pc);
    if (const NotificationSlot* slot = queue.slot.load(std::memory_order_acquire))
        release_notification_slot(slot, pc);
}

// The bytes a call reads or writes in the program's memory.
void bytes(const void* p, u64 n, bool write, u64 pc) {
    if (p == nullptr) return;
    if (InterceptorScope scope(enter_call(pc)); scope)
        library_access(scope.thread(), pc, p, n, write);
}

// A receive returned r (bytes of a message of priority `priority`, stored at buf and *prio).
ssize_t received(mqd_t q, const char* buf, ssize_t r, unsigned priority, unsigned* prio, u64 pc) {
    fd::after_receive(q, pc, r >= 0 ? 0 : -1, priority);
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
    fd::before_send(q, FRT_CALLER(), msg, n, priority);
    notification_released(q, FRT_CALLER());
    return call_real_or_enosys(REAL(mq_send), q, msg, n, priority);
}

FRT_EXPORT int mq_timedsend(mqd_t q, const char* msg, size_t n, unsigned priority,
                            const struct timespec* timeout) {
    bytes(timeout, sizeof *timeout, false, FRT_CALLER());
    fd::before_send(q, FRT_CALLER(), msg, n, priority);
    notification_released(q, FRT_CALLER());
    return call_real_or_enosys(REAL(mq_timedsend), q, msg, n, priority, timeout);
}

FRT_EXPORT ssize_t mq_receive(mqd_t q, char* buf, size_t n, unsigned* prio) {
    unsigned priority = 0;
    const ssize_t r = call_real_or_enosys(REAL(mq_receive), q, buf, n, &priority);
    if (r >= 0 && prio != nullptr) *prio = priority;
    return received(q, buf, r, priority, prio, FRT_CALLER());
}

FRT_EXPORT ssize_t mq_timedreceive(mqd_t q, char* buf, size_t n, unsigned* prio,
                                   const struct timespec* timeout) {
    bytes(timeout, sizeof *timeout, false, FRT_CALLER());
    unsigned priority = 0;
    const ssize_t r = call_real_or_enosys(REAL(mq_timedreceive), q, buf, n, &priority, timeout);
    if (r >= 0 && prio != nullptr) *prio = priority;
    return received(q, buf, r, priority, prio, FRT_CALLER());
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
    const u32 n = fd::queue_of(q);
    Queue* queue = n < kQueues ? &g_queues[n] : nullptr;
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
    NotificationSlot* slot =
        queue == nullptr
            ? nullptr
            : notification_slot(event, queue->last_slot.load(std::memory_order_relaxed));
    if (slot == nullptr) return call_real_or_enosys(REAL(mq_notify), q, event);
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
