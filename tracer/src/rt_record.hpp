// Helpers the interceptor files share to write synchronization events and the accesses that
// library calls make on the program's behalf. All of them expect the guard to be held.
#pragma once

#include "rt_internal.hpp"

namespace frt {

#define FRT_CALLER() (reinterpret_cast<frt::u64>(__builtin_return_address(0)))

// ThreadSanitizer's runtime defines every interceptor `f` as `__interceptor_f` (with `f` an
// alias), and programs that wrap an intercepted function themselves call on to it by that
// name. The same aliases here, one per interposed function, in the file that defines it.
#define FRT_INTERCEPTOR_ALIAS(name)                                                                \
    __asm__(".globl __interceptor_" #name "\n.type __interceptor_" #name                           \
            ",@function\n.set __interceptor_" #name ", " #name);

// Writes one synchronization event whose operation started at c0 (computation closed there).
inline void record(ThreadState* t, u8 op, u8 cls, const void* obj, u64 counter, u64 c0, u64 pc,
                   i64 extra = 0, u64 incarnation = 0) {
    SyncRecord r{};
    r.op = op;
    r.cls = cls;
    r.object = reinterpret_cast<u64>(obj);
    r.incarnation = incarnation;
    r.counter = counter;
    r.clock_start = c0;
    r.clock_finish = now();
    r.pc = pc;
    r.extra = extra;
    emit_sync(t, r);
}

// The incarnation that the records of a lock-like object carry: pthread_mutex_init,
// pthread_rwlock_init and pthread_spin_init start a new one with fresh counters
// (lock_started), so that a lock initialized again at an address, typically in a freed block
// reused by another thread, orders nothing with the old lock's operations. Other classes keep
// their incarnations their own way (semaphores, barriers, atomics, heap blocks).
FRT_INLINE u64 lock_incarnation(u8 cls, const ObjEntry* o) {
    namespace fmt = firstrace::format;
    return cls == fmt::kObjMutex || cls == fmt::kObjRwLock || cls == fmt::kObjRwLockReaders ||
                   cls == fmt::kObjSpinLock
               ? o->incarnation.load(std::memory_order_relaxed)
               : 0;
}

// A lock object starts afresh at its init (see lock_incarnation): a new incarnation, counters
// from 0 (the truncation cut reads a gap in an object's counters as a lost operation).
inline void lock_started(u8 cls, const void* obj) {
    if (g_state.load() != RtState::Ready) return;
    ObjEntry* o = object(cls, obj);
    o->counter.store(0);
    o->incarnation.fetch_add(1);
}

// The computation before a synchronization operation ends at its clock reading c0.
inline u64 sync_op_begins(ThreadState* t) {
    const u64 c0 = now();
    close_computation(t, c0);
    return c0;
}

// An Acquire of (cls, obj) by an operation that began at c0 and has completed: its counter is
// taken now.
inline void acquired(ThreadState* t, u8 cls, const void* obj, u64 c0, u64 pc) {
    ObjEntry* o = object(cls, obj);
    record(t, firstrace::format::kOpAcquire, cls, obj, o->counter.fetch_add(1), c0, pc, 0,
           lock_incarnation(cls, o));
}

// A Release's counter, taken while the object is still held (before the real unlock), and its
// records, written once the unlock succeeded. With `merge`, the release also acquires the object
// first (Acquire + Release with consecutive counters): a later acquire is then ordered after
// every earlier release too, as in ThreadSanitizer's release, which joins the releasing thread's
// clock into the object's clock instead of replacing it.
struct ReleaseTicket {
    u64 counter;
    u64 incarnation;
};
inline ReleaseTicket release_ticket(u8 cls, const void* obj, bool merge) {
    ObjEntry* o = object(cls, obj);
    const u64 c = o->counter.fetch_add(merge ? 2 : 1);
    return {c, lock_incarnation(cls, o)};
}
inline void released(ThreadState* t, u8 cls, const void* obj, ReleaseTicket r, bool merge, u64 c0,
                     u64 pc) {
    if (merge)
        record(t, firstrace::format::kOpAcquire, cls, obj, r.counter, c0, pc, 0, r.incarnation);
    record(t, firstrace::format::kOpRelease, cls, obj, merge ? r.counter + 1 : r.counter, c0, pc, 0,
           r.incarnation);
}

// Acquire on (cls, obj) now: the operation is complete, its counter is taken here.
inline void acquire_now(ThreadState* t, u8 cls, const void* obj, u64 pc) {
    acquired(t, cls, obj, sync_op_begins(t), pc);
}

// Release on (cls, obj) now, before the operation that publishes it.
inline void release_now(ThreadState* t, u8 cls, const void* obj, u64 pc, bool merge) {
    const u64 c0 = sync_op_begins(t);
    released(t, cls, obj, release_ticket(cls, obj, merge), merge, c0, pc);
}

// True when pc is in the runtime's own code: the runtime's metadata and stream writes go
// through the same interposed functions (write, close, strlen, ...) as the program's calls,
// and are not the program's.
extern u64 g_runtime_lo, g_runtime_hi;
FRT_INLINE bool from_runtime(u64 pc) {
    return pc >= g_runtime_lo && pc < g_runtime_hi;
}

// enter() for an interposed library call made at pc: null when it is the runtime's own call.
FRT_INLINE ThreadState* enter_call(u64 pc) {
    return from_runtime(pc) ? nullptr : enter();
}

// Alternate signal stacks for the fatal-signal flush (rt_signals.cpp): the calling thread gets
// one if it has none; at its end it goes back to a pool.
void alt_stack_attach();
void alt_stack_detach();

// A library call's access to the program's memory, at the caller's pc.
inline void library_access(ThreadState* t, u64 pc, const void* addr, u64 size, bool write) {
    if (size != 0)
        add_access_slow(t, pc, reinterpret_cast<u64>(addr), size,
                        write ? firstrace::format::kWrite : firstrace::format::kRead);
}

// Synchronization objects are memory too (as in ThreadSanitizer): an operation on one is an
// atomic read of its first byte (operations never race with each other), its init and destroy
// are plain writes of it, so a destroy racing with a use is a race (atomic vs plain). Objects
// the OpenMP runtime initializes and uses itself (its threads' suspend mutexes and condition
// variables) are its own data, ordered by atomics nobody traces (in_openmp_runtime).
inline void sync_object_used(ThreadState* t, u64 pc, const void* obj) {
    if (in_openmp_runtime(pc)) return;
    add_access_slow(t, pc, reinterpret_cast<u64>(obj), 1,
                    firstrace::format::kAtomic | firstrace::format::kRead);
}
inline void sync_object_written(u64 pc, const void* obj) {
    if (in_openmp_runtime(pc)) return;
    if (InterceptorScope scope(enter_call(pc)); scope) {
        library_access(scope.thread(), pc, obj, 1, true);
    }
}

} // namespace frt
