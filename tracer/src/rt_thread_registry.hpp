// The thread registry (rt_thread_registry.cpp): what process start, exit and fork need of it.
// The per-thread interface (attach_thread, thread_started, thread_finish, pids, the thread map)
// is in rt_internal.hpp.
#pragma once

#include "rt_internal.hpp"

namespace frt {

inline constexpr u32 kRegistrySize = 4096;

// At initialisation: maps the thread map.
void thread_registry_init();
// The state registered in slot (null: free), and whether t is still registered there.
ThreadState* registered_thread(u32 slot);
bool still_registered(u32 slot, const ThreadState* t);
// The calling thread is not traced any more (an untraced fork child).
void untraced_from_now();

// Fork child, before the forking thread restarts: the other threads do not exist in the child
// (their states are recycled, the locks they may have held are free), descriptors of the
// parent's streams are closed, process ids start at 0 again.
void thread_registry_after_fork(ThreadState* self);
// Fork child: the forking thread continues as a new process with a fresh stream, keeping its
// shadow stack.
void restart_after_fork(ThreadState* self);

} // namespace frt
