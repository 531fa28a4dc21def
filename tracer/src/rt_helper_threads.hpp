// SIGEV_THREAD notifications (rt_helper_threads.cpp): the C library runs the program's function
// on a thread of its own; the runtime gives it a trampoline that first acquires a notification
// slot, which what must happen before the notification releases (arming a timer, registering
// with a message queue, the send that triggers a queue's notification).
#pragma once

#include <signal.h>

#include "rt_internal.hpp"

namespace frt {

struct NotificationSlot;

bool notifies_on_thread(const struct sigevent* event);
// A slot for event's function and value: `reusable` when it has them (a queue's registration
// renewed), else a new one; null when every slot is taken (the notification is then unordered).
NotificationSlot* notification_slot(const struct sigevent* event, NotificationSlot* reusable);
// A Release of the slot (merging) at pc: the notification is ordered after it.
void release_notification_slot(const NotificationSlot* slot, u64 pc);
// The same by a thread (or logical process) already inside the runtime (the guard held).
void release_notification_slot(ThreadState* t, const NotificationSlot* slot, u64 pc);
// Whether event calls a slot's trampoline (through_slot() made it).
bool is_through_slot(const struct sigevent* event);
// `event` calling the slot's trampoline instead of the program's function.
struct sigevent through_slot(const struct sigevent* event, const NotificationSlot* slot);

} // namespace frt
