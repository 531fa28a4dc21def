// Library calls that start threads of the C library's own (glibc creates them with its internal
// pthread_create, which the runtime does not see): a SIGEV_THREAD notification of a timer or a
// message queue runs the program's function on such a thread, and POSIX asynchronous I/O does
// the transfers on them. The runtime attaches such a thread only when it first runs traced code,
// so from the call on the caller can no longer count itself alone (rt_thread_registry.cpp,
// alone(): events of a process that is alone are not written).
//
// A timer's SIGEV_THREAD notification runs after the timer was armed: arming (timer_create,
// timer_settime) is a Release of the timer's notification slot and the notification function
// starts with an Acquire of it (the notification thread is made by the C library after the
// expiration, which comes after the arming; with no such edge the data a program prepares for
// its notification function looks shared with nothing ordering it). The slot replaces the
// program's function and value in the sigevent given to the C library (a trampoline calls the
// program's function with its value); slots live in static memory and are never reused, since a
// notification may start after its timer was deleted. A program that creates more than
// kTimerSlots such timers gets the rest unordered (as before). A message queue's SIGEV_THREAD
// notification (rt_mq.cpp) goes through a slot of the same pool.
#include <errno.h>
#include <netdb.h>
#include <signal.h>
#include <time.h>

#include <algorithm>
#include <atomic>

#include "rt_helper_threads.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_signals.hpp"

using namespace frt;
namespace fmt = firstrace::format;

namespace {
FRT_DECLARE_REAL(timer_create);

FRT_DECLARE_REAL(getaddrinfo_a);
FRT_DECLARE_REAL(timer_settime);
} // namespace

// The program's notification of one timer (or message queue).
struct frt::NotificationSlot {
    void (*function)(union sigval);
    union sigval value;
    std::atomic<timer_t> timer; // once created
    std::atomic<bool> created;
};

namespace {
using TimerSlot = NotificationSlot;
constexpr u32 kTimerSlots = 1024;
TimerSlot g_timer_slots[kTimerSlots];
std::atomic<u32> g_timer_slots_used{0};

// Runs on the C library's notification thread (attached here: its first traced code).
void notify_through_slot(union sigval value) {
    const auto* slot = static_cast<const TimerSlot*>(value.sival_ptr);
    if (InterceptorScope scope; scope)
        acquire_now(scope.thread(), fmt::kObjSignal, slot, reinterpret_cast<u64>(slot->function));
    slot->function(slot->value);
}

void remember_timer_slot(timer_t timer, TimerSlot* slot) {
    slot->timer.store(timer, std::memory_order_relaxed);
    slot->created.store(true, std::memory_order_release);
}

// The slot of a timer made through one, the newest first (the C library reuses the ids of
// deleted timers).
const TimerSlot* timer_slot(timer_t timer) {
    u32 i = std::min(g_timer_slots_used.load(std::memory_order_acquire), kTimerSlots);
    while (i-- > 0) {
        const TimerSlot& slot = g_timer_slots[i];
        if (slot.created.load(std::memory_order_acquire) &&
            slot.timer.load(std::memory_order_relaxed) == timer)
            return &slot;
    }
    return nullptr;
}

// The slot of a SIGEV_THREAD timer (null when none is left: the timer is made unwrapped); the
// timer id is kept so that timer_settime finds its slot.
TimerSlot* new_timer_slot(const struct sigevent* event) {
    const u32 i = g_timer_slots_used.fetch_add(1, std::memory_order_relaxed);
    if (i >= kTimerSlots) return nullptr;
    TimerSlot* slot = &g_timer_slots[i];
    slot->function = event->sigev_notify_function;
    slot->value = event->sigev_value;
    return slot;
}

} // namespace

bool frt::notifies_on_thread(const struct sigevent* event) {
    return event != nullptr && event->sigev_notify == SIGEV_THREAD;
}

frt::NotificationSlot* frt::notification_slot(const struct sigevent* event,
                                              NotificationSlot* reusable) {
    if (reusable != nullptr && reusable->function == event->sigev_notify_function &&
        reusable->value.sival_ptr == event->sigev_value.sival_ptr)
        return reusable;
    return new_timer_slot(event);
}

void frt::release_notification_slot(const NotificationSlot* slot, u64 pc) {
    InterceptorScope scope(enter_call(pc));
    if (scope) release_notification_slot(scope.thread(), slot, pc);
}

void frt::release_notification_slot(ThreadState* t, const NotificationSlot* slot, u64 pc) {
    release_now(t, fmt::kObjSignal, slot, pc, true);
}

bool frt::is_through_slot(const struct sigevent* event) {
    return event != nullptr && event->sigev_notify == SIGEV_THREAD &&
           event->sigev_notify_function == notify_through_slot;
}

struct sigevent frt::through_slot(const struct sigevent* event, const NotificationSlot* slot) {
    struct sigevent through = *event;
    through.sigev_notify_function = notify_through_slot;
    through.sigev_value.sival_ptr = const_cast<NotificationSlot*>(slot);
    return through;
}

FRT_EXPORT int timer_create(clockid_t clock, struct sigevent* event, timer_t* timer) {
    if (!notifies_on_thread(event)) {
        const int r = call_real_or_enosys(REAL(timer_create), clock, event, timer);
        if (r == 0) signal_timer_created(*timer, event); // rt_signal_timers.cpp
        return r;
    }
    unordered_helper_thread();
    TimerSlot* slot = new_timer_slot(event);
    if (slot == nullptr) return call_real_or_enosys(REAL(timer_create), clock, event, timer);
    struct sigevent through = through_slot(event, slot);
    release_notification_slot(slot, FRT_CALLER());
    const int r = call_real_or_enosys(REAL(timer_create), clock, &through, timer);
    if (r == 0) remember_timer_slot(*timer, slot);
    return r;
}

FRT_EXPORT int timer_settime(timer_t timer, int flags, const struct itimerspec* value,
                             struct itimerspec* old) {
    if (const TimerSlot* slot = timer_slot(timer); slot != nullptr)
        release_notification_slot(slot, FRT_CALLER());
    else
        signal_timer_armed(timer, value, FRT_CALLER());
    return call_real_or_enosys(REAL(timer_settime), timer, flags, value, old);
}

FRT_EXPORT int getaddrinfo_a(int mode, struct gaicb* list[], int count, struct sigevent* event) {
    unordered_helper_thread();
    return call_real_or_enosys(REAL(getaddrinfo_a), mode, list, count, event);
}

FRT_INTERCEPTOR_ALIAS(timer_create)
FRT_INTERCEPTOR_ALIAS(timer_settime)
FRT_INTERCEPTOR_ALIAS(getaddrinfo_a)
