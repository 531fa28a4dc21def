// POSIX asynchronous I/O (XSH 2.8.2): a request's transfer happens some time between its
// submission and its completion, done by the kernel or (glibc) by threads of the C library
// that run no traced code. What the program can rely on is the order submission -> transfer
// -> completion -> the call that observes the completion. Modelled as:
//
//   aio_read, aio_write,     the submission reads the control block (the library reads its
//   lio_listio entries       fields) and is a Release of it (kObjAsyncIo at its address). The
//                            transfer is a logical process of its own (as a task: kRecProcess
//                            kind 1, written into the submitter's stream) that acquires the
//                            submission, writes aio_buf[0, aio_nbytes) (aio_read) or reads it
//                            (aio_write), releases the control block and ends. It is ordered
//                            with nothing else: any access to the buffer by any thread (the
//                            submitter's too) that is not ordered before the submission or
//                            after an observed completion races with it (POSIX: the buffer
//                            must not be used while the request is in progress).
//   aio_error != EINPROGRESS,
//   aio_return, aio_suspend  an Acquire of each control block found complete: what the
//   returning 0, aio_cancel  submitter did before submitting, and the transfer, are ordered
//   AIO_CANCELED/ALLDONE,    before the observer's next accesses (a thread that waits for a
//   lio_listio(LIO_WAIT)     request another thread submitted and then uses the buffer).
//
//   completion notification the request's aio_sigevent (lio_listio: the list's event, once
//                            every request of the list is done; the requests' own are not
//                            used): the transfer releases it before it ends. SIGEV_THREAD: a
//                            notification slot (rt_helper_threads.cpp) that the notification
//                            function's thread acquires first, so it is ordered after the
//                            transfer it reports (and the submission). The C library reads a
//                            request's aio_sigevent from the control block when the request
//                            completes, so the block holds the slot's trampoline from the
//                            submission until the notification starts, which puts the program's
//                            function and value back (a Notice per control block keeps them).
//                            SIGEV_SIGNAL: the transfer sends the signal, as kill does, which
//                            sigwait & co. and a signalfd read acquire (a handler acquires
//                            nothing, as for any asynchronous signal).
//
// aio_fsync orders nothing (it moves no program memory). The C library's helper threads may run
// program code from the first submission on (rt_helper_threads.cpp: the caller stops being
// alone). More than kNotices control blocks with SIGEV_THREAD, or no slot left: their
// notifications are not ordered.
#include <aio.h>
#include <errno.h>

#include <atomic>

#include "rt_helper_threads.hpp"
#include "rt_library_call.hpp"
#include "rt_real.hpp"
#include "rt_signals.hpp"
#include "rt_system.hpp"

using namespace frt;
namespace fmt = firstrace::format;

namespace {
FRT_DECLARE_REAL(aio_read);
FRT_DECLARE_REAL(aio_write);
FRT_DECLARE_REAL(aio_fsync);
FRT_DECLARE_REAL(lio_listio);
FRT_DECLARE_REAL(aio_error);
FRT_DECLARE_REAL(aio_return);
FRT_DECLARE_REAL(aio_suspend);
FRT_DECLARE_REAL(aio_cancel);
FRT_DECLARE_REAL(aio_read64);
FRT_DECLARE_REAL(aio_write64);
FRT_DECLARE_REAL(aio_fsync64);
FRT_DECLARE_REAL(lio_listio64);
FRT_DECLARE_REAL(aio_error64);
FRT_DECLARE_REAL(aio_return64);
FRT_DECLARE_REAL(aio_suspend64);
FRT_DECLARE_REAL(aio_cancel64);

// How a completion is notified: a SIGEV_THREAD notification's slot, or a SIGEV_SIGNAL's signal.
struct Notification {
    const NotificationSlot* slot = nullptr;
    int signal = 0;
};

// A control block's SIGEV_THREAD notification: the program's function and value, while the
// block holds the slot's trampoline.
struct Notice {
    std::atomic<const void*> cb;
    std::atomic<struct sigevent*> event; // the block's aio_sigevent
    std::atomic<void (*)(union sigval)> function;
    std::atomic<void*> value;
    std::atomic<NotificationSlot*> slot;
};
constexpr u32 kNotices = 1024;
Notice g_notices[kNotices];
std::atomic<NotificationSlot*> g_list_slot; // the last lio_listio notification's (reused)

Notice* notice_of(const void* cb) {
    const u64 key = reinterpret_cast<u64>(cb);
    for (u32 i = 0, s = static_cast<u32>(hash64(key) % kNotices); i < kNotices;
         ++i, s = (s + 1) % kNotices) {
        const void* seen = g_notices[s].cb.load(std::memory_order_acquire);
        if (seen == nullptr &&
            g_notices[s].cb.compare_exchange_strong(seen, cb, std::memory_order_acq_rel))
            return &g_notices[s];
        if (seen == cb) return &g_notices[s];
    }
    return nullptr;
}

// On the C library's notification thread, after the slot's Acquire: the control block gets the
// program's sigevent back (unless the program already changed it), then the program's function.
void request_notified(union sigval value) {
    auto* notice = static_cast<Notice*>(value.sival_ptr);
    const auto function = notice->function.load(std::memory_order_acquire);
    union sigval program_value;
    program_value.sival_ptr = notice->value.load(std::memory_order_relaxed);
    struct sigevent* event = notice->event.load(std::memory_order_relaxed);
    if (is_through_slot(event) &&
        event->sigev_value.sival_ptr == notice->slot.load(std::memory_order_relaxed)) {
        event->sigev_notify_function = function;
        event->sigev_value = program_value;
    }
    function(program_value);
}

// Before a request's submission: how its completion is notified; a SIGEV_THREAD event in the
// control block now calls a slot's trampoline (its function and value are kept in the block's
// Notice).
template <class Block> Notification request_notification(Block* cb) {
    if (cb == nullptr) return {};
    struct sigevent* event = &cb->aio_sigevent;
    if (event->sigev_notify == SIGEV_SIGNAL) return {nullptr, event->sigev_signo};
    if (event->sigev_notify != SIGEV_THREAD) return {};
    Notice* notice = notice_of(cb);
    if (notice == nullptr) return {};
    NotificationSlot* slot = notice->slot.load(std::memory_order_relaxed);
    if (!is_through_slot(event)) { // the program's own event
        notice->function.store(event->sigev_notify_function, std::memory_order_relaxed);
        notice->value.store(event->sigev_value.sival_ptr, std::memory_order_relaxed);
    } else if (slot == nullptr) { // a copy of another block's wrapped event: left as it is
        return {};
    } else if (event->sigev_value.sival_ptr != slot) { // the program set a new value only
        notice->value.store(event->sigev_value.sival_ptr, std::memory_order_relaxed);
    }
    notice->event.store(event, std::memory_order_relaxed);
    struct sigevent own = *event;
    own.sigev_notify_function = request_notified;
    own.sigev_value.sival_ptr = notice;
    slot = notification_slot(&own, slot);
    if (slot == nullptr) { // no slot left: the program's event, unordered
        event->sigev_notify_function = notice->function.load(std::memory_order_relaxed);
        event->sigev_value.sival_ptr = notice->value.load(std::memory_order_relaxed);
        return {};
    }
    notice->slot.store(slot, std::memory_order_release);
    const struct sigevent through = through_slot(&own, slot);
    event->sigev_notify_function = through.sigev_notify_function;
    event->sigev_value = through.sigev_value;
    return {slot, 0};
}

// lio_listio's event (copied by the C library): how the list's completion is notified, and the
// event given to the C library instead (`through`, when it calls a slot's trampoline).
Notification list_notification(const struct sigevent* event, struct sigevent& through) {
    if (event == nullptr) return {};
    if (event->sigev_notify == SIGEV_SIGNAL) return {nullptr, event->sigev_signo};
    if (!notifies_on_thread(event)) return {};
    NotificationSlot* slot = notification_slot(event, g_list_slot.load(std::memory_order_relaxed));
    if (slot == nullptr) return {};
    g_list_slot.store(slot, std::memory_order_relaxed);
    through = through_slot(event, slot);
    return {slot, 0};
}

// The submission of one request, before the real call (the transfer may start at once): the
// caller reads the control block; the transfer is a logical process of its own, written into
// the caller's stream, that acquires the submission, reads or writes the buffer and releases
// the control block for the calls that observe the completion, and its notifications (the
// request's own, the list's). `writes_buffer`: a read request.
template <class Block>
void submitted(const Block* cb, bool writes_buffer, u64 pc, Notification own = {},
               Notification list = {}) {
    if (cb == nullptr) return;
    InterceptorScope scope(program_call(pc));
    if (!scope) return;
    ThreadState* t = scope.thread();
    library_access(t, pc, cb, sizeof(Block), false);
    release_now(t, fmt::kObjAsyncIo, cb, pc, false);
    const u32 caller = t->pid;
    emit_process(t, new_pid(), caller, fmt::kProcTask);
    acquire_now(t, fmt::kObjAsyncIo, cb, pc);
    library_access(t, pc, const_cast<const void*>(cb->aio_buf), cb->aio_nbytes, writes_buffer);
    release_now(t, fmt::kObjAsyncIo, cb, pc, false);
    for (const Notification& n : {own, list}) {
        if (n.slot != nullptr) release_notification_slot(t, n.slot, pc);
        if (n.signal > 0) signal_sent(t, n.signal, pc);
    }
    emit_end(t, now());
    emit_switch(t, caller);
}

// The completion of cb has been observed by the caller.
template <class Block> void completion_seen(const Block* cb, u64 pc) {
    if (cb == nullptr) return;
    if (InterceptorScope scope(program_call(pc)); scope)
        acquire_now(scope.thread(), fmt::kObjAsyncIo, cb, pc);
}

template <class Block, class Submit>
int submit(Submit real, Block* cb, bool writes_buffer, u64 pc) {
    unordered_helper_thread();
    submitted(cb, writes_buffer, pc, request_notification(cb));
    return call_real_or_enosys(real, cb);
}

template <class Block, class List>
int submit_list(List real, int mode, Block* const list[], int count, struct sigevent* event,
                u64 pc) {
    unordered_helper_thread();
    struct sigevent through {};
    const Notification notification =
        mode == LIO_NOWAIT ? list_notification(event, through) : Notification{};
    for (int i = 0; list != nullptr && i < count; ++i)
        if (list[i] != nullptr && list[i]->aio_lio_opcode != LIO_NOP)
            submitted(list[i], list[i]->aio_lio_opcode == LIO_READ, pc, {}, notification);
    const int r = call_real_or_enosys(real, mode, list, count,
                                      notification.slot != nullptr ? &through : event);
    if (r == 0 && mode == LIO_WAIT)
        for (int i = 0; i < count; ++i)
            if (list[i] != nullptr && list[i]->aio_lio_opcode != LIO_NOP)
                completion_seen(list[i], pc);
    return r;
}

template <class Block, class Error> int error_of(Error real, const Block* cb, u64 pc) {
    const int r = call_real_or_enosys(real, cb);
    if (r != EINPROGRESS && r != -1) completion_seen(cb, pc);
    return r;
}

template <class Block, class Return> ssize_t return_of(Return real, Block* cb, u64 pc) {
    completion_seen(cb, pc); // only defined once the request is complete
    return call_real_or_enosys(real, cb);
}

template <class Block, class Suspend, class Error>
int suspend(Suspend real, Error error, const Block* const list[], int count,
            const struct timespec* timeout, u64 pc) {
    const int r = call_real_or_enosys(real, list, count, timeout);
    if (r == 0)
        for (int i = 0; list != nullptr && i < count; ++i)
            if (list[i] != nullptr && call_real_or_enosys(error, list[i]) != EINPROGRESS)
                completion_seen(list[i], pc);
    return r;
}

template <class Block, class Cancel> int cancel(Cancel real, int fd, Block* cb, u64 pc) {
    const int r = call_real_or_enosys(real, fd, cb);
    if (r == AIO_CANCELED || r == AIO_ALLDONE) completion_seen(cb, pc);
    return r;
}
} // namespace

FRT_EXPORT int aio_read(struct aiocb* cb) {
    return submit(REAL(aio_read), cb, true, FRT_CALLER());
}
FRT_EXPORT int aio_write(struct aiocb* cb) {
    return submit(REAL(aio_write), cb, false, FRT_CALLER());
}
FRT_EXPORT int aio_fsync(int op, struct aiocb* cb) {
    unordered_helper_thread();
    return call_real_or_enosys(REAL(aio_fsync), op, cb);
}
FRT_EXPORT int lio_listio(int mode, struct aiocb* const list[], int count, struct sigevent* event) {
    return submit_list(REAL(lio_listio), mode, list, count, event, FRT_CALLER());
}
FRT_EXPORT int aio_error(const struct aiocb* cb) {
    return error_of(REAL(aio_error), cb, FRT_CALLER());
}
FRT_EXPORT ssize_t aio_return(struct aiocb* cb) {
    return return_of(REAL(aio_return), cb, FRT_CALLER());
}
FRT_EXPORT int aio_suspend(const struct aiocb* const list[], int count,
                           const struct timespec* timeout) {
    return suspend(REAL(aio_suspend), REAL(aio_error), list, count, timeout, FRT_CALLER());
}
FRT_EXPORT int aio_cancel(int fd, struct aiocb* cb) {
    return cancel(REAL(aio_cancel), fd, cb, FRT_CALLER());
}

FRT_EXPORT int aio_read64(struct aiocb64* cb) {
    return submit(REAL(aio_read64), cb, true, FRT_CALLER());
}
FRT_EXPORT int aio_write64(struct aiocb64* cb) {
    return submit(REAL(aio_write64), cb, false, FRT_CALLER());
}
FRT_EXPORT int aio_fsync64(int op, struct aiocb64* cb) {
    unordered_helper_thread();
    return call_real_or_enosys(REAL(aio_fsync64), op, cb);
}
FRT_EXPORT int lio_listio64(int mode, struct aiocb64* const list[], int count,
                            struct sigevent* event) {
    return submit_list(REAL(lio_listio64), mode, list, count, event, FRT_CALLER());
}
FRT_EXPORT int aio_error64(const struct aiocb64* cb) {
    return error_of(REAL(aio_error64), cb, FRT_CALLER());
}
FRT_EXPORT ssize_t aio_return64(struct aiocb64* cb) {
    return return_of(REAL(aio_return64), cb, FRT_CALLER());
}
FRT_EXPORT int aio_suspend64(const struct aiocb64* const list[], int count,
                             const struct timespec* timeout) {
    return suspend(REAL(aio_suspend64), REAL(aio_error64), list, count, timeout, FRT_CALLER());
}
FRT_EXPORT int aio_cancel64(int fd, struct aiocb64* cb) {
    return cancel(REAL(aio_cancel64), fd, cb, FRT_CALLER());
}

FRT_INTERCEPTOR_ALIAS(aio_read)
FRT_INTERCEPTOR_ALIAS(aio_write)
FRT_INTERCEPTOR_ALIAS(aio_fsync)
FRT_INTERCEPTOR_ALIAS(lio_listio)
FRT_INTERCEPTOR_ALIAS(aio_error)
FRT_INTERCEPTOR_ALIAS(aio_return)
FRT_INTERCEPTOR_ALIAS(aio_suspend)
FRT_INTERCEPTOR_ALIAS(aio_cancel)
FRT_INTERCEPTOR_ALIAS(aio_read64)
FRT_INTERCEPTOR_ALIAS(aio_write64)
FRT_INTERCEPTOR_ALIAS(aio_fsync64)
FRT_INTERCEPTOR_ALIAS(lio_listio64)
FRT_INTERCEPTOR_ALIAS(aio_error64)
FRT_INTERCEPTOR_ALIAS(aio_return64)
FRT_INTERCEPTOR_ALIAS(aio_suspend64)
FRT_INTERCEPTOR_ALIAS(aio_cancel64)
