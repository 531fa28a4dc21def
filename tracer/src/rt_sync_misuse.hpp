// Misuse of synchronization objects (POSIX: the results are undefined): pthread_barrier_init or
// pthread_barrier_destroy while threads are blocked on the barrier, and a free or munmap of the
// memory that holds it then. Such a call is recorded as a misuse (kRecMisuse) instead of the
// write of the object's bytes that would make it a data race with the blocked threads' reads,
// as Helgrind and DRD report it as an error of its own kind.
//
// Whether threads are blocked on a barrier is known from the barrier's entry (ObjEntry, under its
// spin lock): a round of the current incarnation has started and not completed, i.e. its
// arrivals are not a multiple of its count. That decides init and destroy (a destroy after the
// round completed, while a thread is still returning from its wait, stays a race). A free or
// munmap looks at the threads inside the real pthread_barrier_wait: each holds a slot of a
// small table with the barrier's address while it is in there, so that a free needs one
// relaxed load when no thread is.
//
// A destroy with a round in progress: glibc's pthread_barrier_destroy waits until as many
// threads as had entered the barrier have left it (it pretends the reset threshold is reached
// and waits for the last one out to reset the barrier), then fences (acquire): the destroy is
// ordered after those departures. The runtime models that: the destroy marks the round
// (ObjEntry::last_release = barrier_round_key), each thread leaving that round records
// Acquire+Release on (kObjBarrierExits, barrier) after its departure (a chain), and the destroy,
// once the real one has returned, waits (bounded) until as many have as had arrived when it was
// called, and records an Acquire there.
#pragma once

#include <pthread.h>

#include "rt_internal.hpp"

namespace frt {

// A round of the barrier whose entry is o is in progress (threads are blocked on it). Under
// o->spin.
FRT_INLINE bool barrier_round_in_progress(const ObjEntry* o) {
    const i64 count = o->extra.load(std::memory_order_relaxed);
    return count > 1 && o->counter.load(std::memory_order_relaxed) % static_cast<u64>(count) != 0;
}

// The key of round `episode` of incarnation `incarnation` (never 0).
FRT_INLINE u64 barrier_round_key(u32 incarnation, u64 episode) {
    return (static_cast<u64>(incarnation) << 32) | (episode & 0x7fffffffull) | (1ull << 31);
}

// The calling thread enters the real wait on the barrier at `address`: the slot it holds until it
// leaves (kNoSlot when the table is full: then a free does not know of it).
inline constexpr u32 kNoSlot = ~0u;
u32 barrier_wait_entered(u64 address);
void barrier_wait_left(u32 slot);
// In the child of fork(): only the forking thread exists, and it is in no barrier wait.
void barrier_waits_after_fork();

// The write of [lo, lo + size) that a free or munmap at pc makes: the bytes of a barrier with a
// thread inside its wait are left out of it, and a misuse (kMisuseFreeWaiters) is recorded for
// each. One relaxed load when no thread is inside a barrier wait.
void freed_range_written(ThreadState* t, u64 pc, u64 lo, u64 size);

// A thread left round `episode` of the barrier at b (its Depart recorded): when a destroy waits
// for that round, the departure is ordered before the destroy's return.
void barrier_departed(ThreadState* t, const void* b, ObjEntry* o, u32 incarnation, u64 episode,
                      u64 pc);

// pthread_barrier_destroy(b) at pc through `real`, inside `scope`.
int barrier_destroy(InterceptorScope& scope, pthread_barrier_t* b, u64 pc,
                    int (*real)(pthread_barrier_t*));

} // namespace frt
