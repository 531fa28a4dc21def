// The locks a process holds during each of its events (issue 12: "the locks held at each
// access"), from its own acquire and release events in process order, and the names reports
// give synchronization objects.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "firstrace/model.hpp"
#include "report_memory_names.hpp"

namespace firstrace {

// A lock held during an event: the object and the event of the same process that acquired it.
struct HeldLock {
    std::uint32_t object = kNone;   // Trace::objects index (the object of the acquire)
    std::uint32_t acquired = kNone; // index of the acquire event in the process
    friend bool operator==(const HeldLock&, const HeldLock&) = default;
};

// Held locks of every event, computed once per trace in one pass over each process. A lock is
// a mutex, spin lock, read-write lock or OpenMP lock (SyncObjectKind Lock, RwLock, SpinLock);
// atomics, semaphores and the rest are no locks. Acquires and releases are matched by the
// object's address (object id for STD traces, which have none), so that the two objects of a
// read-write lock (its lock and its read unlocks, tracer/src/rt_interceptors.cpp) are one lock:
// an acquire of the object already holding the lock nests (recursive mutexes), an acquire of
// the other object at that address does not, and any release at the address undoes one level.
class HeldLocks {
  public:
    explicit HeldLocks(const Trace& trace);
    // Locks held by `process` during its event `event`, in acquisition order; an acquire event
    // holds the lock it acquires, a release event still holds the lock it releases.
    std::vector<HeldLock> at(std::uint32_t process, std::uint32_t event) const;

  private:
    // Per process: the event indices where the held set changes and the set from there on,
    // locks_[first, first + count).
    struct Change {
        std::uint32_t event;
        std::uint32_t first;
        std::uint32_t count;
    };
    std::vector<std::vector<Change>> changes_;
    std::vector<HeldLock> locks_;
};

// How reports name synchronization object `object`: its kind and the variable or heap block
// holding it ("mutex pool_lock", "mutex in heap block of 64 bytes allocated at ..., offset 8"),
// or the trace's own name ("mutex@0x7f..", STD "L1") when its address names nothing.
std::string sync_object_label(const Trace& trace, const MemoryNames& names, std::uint32_t object);

// The name reports give the object of an event: the label of its synchronization object, the
// child process of a fork or join, "" for computation events.
std::string event_object_label(const Trace& trace, const MemoryNames& names, const Event& event);

// Per process, the index of the fork event in its parent that created it (kNone: no fork event
// is known, e.g. the initial thread). The stack of that event is the thread's creation stack.
std::vector<std::uint32_t> creation_events(const Trace& trace);

} // namespace firstrace
