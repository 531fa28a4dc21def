// Release sequences of an atomic object (C11 7.17.4 / 5.1.2.4, C++20 [intro.races]).
//
// A release store or RMW A on M heads a release sequence: A and the maximal run of RMWs on M
// after it in M's modification order, whatever their memory order and thread, and of stores by
// A's own thread (C11 5.1.2.4p10, C++11-17; C++20 dropped these, but gcc 12 and clang 14 compile
// C++17 and C++14 by default): a plain store by another thread ends it. An acquire that reads a
// value written by any store of that run synchronizes with A. So an acquire reading an RMW that is
// itself a release synchronizes with every release heading a sequence still running through it:
// release RMWs by several threads (reference counts, latches) all reach the acquirer, and none
// of them reaches another (a release RMW does not acquire).
//
// The counter model pairs an Acquire with the latest Release of the same object only, so each
// process gets its own object per release sequence: kObjAtomic at M, incarnation =
// (sequence number << 22) | pid. A sequence number counts the plain stores on M that ended
// every sequence running (a store by a process whose release heads one ends the others only:
// their heads stay, marked ended, with their counters). The object's state (ObjEntry::incarnation
// and heads, under its spin lock) lists the processes whose releases head the current sequence, at
// most kHeads of them; an acquire acquires each (one Acquire per process: its latest release in the
// sequence covers its earlier ones by process order). A release by one more process than kHeads
// falls back to merging: it acquires the heads first and starts a fresh sequence of its own
// (over-orders that process: can hide a race, never invent one).
//
// The tracer knows which store a load read when both ran under the object's spin lock: stores
// and RMWs with release order, acquire loads and RMWs, and plain relaxed stores on an object
// that already has an entry. Relaxed RMWs do not take the lock (they continue the sequence
// whatever their position). Where it cannot know: a relaxed store racing with the very first
// release on M (no entry yet: the store does not end the sequence), and a relaxed load followed
// by an acquire fence (rt_access.cpp: the fence acquires the current sequence's heads at the
// fence, the sequence the load read if no plain store came between; if one did, nothing).
#pragma once

#include "rt_internal.hpp"

namespace frt {

inline constexpr u32 kHeads = sizeof(ObjEntry::heads) / sizeof(ObjEntry::heads[0]);

// The synchronization records one atomic operation needs, written after the object's lock is
// released: Acquires first, then at most one Release.
struct AtomicRecords {
    struct Entry {
        u8 op;
        u64 incarnation;
        u64 counter;
    };
    u32 count = 0;
    Entry entries[kHeads + 1];
};

// What an operation on an atomic object does to its release sequences.
struct AtomicEffect {
    bool acquire;     // a load or RMW with acquire semantics (read the current value)
    bool release;     // a store or RMW with release semantics (or after a release fence)
    bool plain_store; // a store that is not an RMW: ends the current sequence
};

// Under o->spin, right after the operation: updates the object's release sequences and fills
// `out` with the records of process `pid`.
void atomic_effect(ObjEntry* o, u32 pid, AtomicEffect effect, AtomicRecords& out);

// Under o->spin, right after atomic_effect filled `records` with exactly one Release of
// process `pid`: true when it is in the same release sequence as that process's previous
// Release on o (incarnation `incarnation`, counter `counter`), which the caller knows to stand
// at the same place in its process (nothing recorded or accessed since). Acquires of other
// processes in between paired with the previous Release, and later ones may too: its position
// is this one's. The counter this Release took is then given back (the object's counters stay
// gapless: a gap means a lost record to the reader), and so is its change of o->last_release (an
// acquirer of the previous Release need not acquire again: rt_access.cpp elides it).
bool repeats_release(ObjEntry* o, u32 pid, const AtomicRecords& records, u64 incarnation,
                     u64 counter);

// Writes `records` for the operation at pc on the atomic at `address`, all from clock c0 to c1
// (the computation event closed by the caller).
inline void emit_atomic_records(ThreadState* t, u64 address, const AtomicRecords& records, u64 pc,
                                u64 c0, u64 c1) {
    SyncRecord r{};
    r.cls = firstrace::format::kObjAtomic;
    r.object = address;
    r.pc = pc;
    r.clock_start = c0;
    r.clock_finish = c1;
    for (u32 i = 0; i < records.count; ++i) {
        r.op = records.entries[i].op;
        r.incarnation = records.entries[i].incarnation;
        r.counter = records.entries[i].counter;
        emit_sync(t, r);
    }
}

// An atomic operation made by a library the compiler did not instrument (the C++ runtime's
// guard release, a future made ready at a thread's exit), recorded as rt_access.cpp records an
// instrumented one: `op` (the real operation, or nothing when the caller makes it right after)
// runs under the object's spin lock with its effect on the release sequences. Takes the guard.
template <class Op>
void library_atomic_op(const void* address, AtomicEffect effect, u64 pc, Op&& op) {
    InterceptorScope scope;
    if (!scope) {
        op();
        return;
    }
    ThreadState* t = scope.thread();
    ObjEntry* o = object(firstrace::format::kObjAtomic, address);
    const u64 c0 = now();
    close_computation(t, c0);
    AtomicRecords records;
    spin_lock(o->spin);
    op();
    atomic_effect(o, t->pid, effect, records);
    const u64 stamp = o->last_release.load(std::memory_order_relaxed);
    spin_unlock(o->spin);
    emit_atomic_records(t, reinterpret_cast<u64>(address), records, pc, c0, now());
    if (effect.release) {
        t->acq_obj = nullptr;
    } else {
        t->acq_obj = o;
        t->acq_stamp = stamp;
    }
}

} // namespace frt
