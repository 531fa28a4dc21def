// One atomic operation of the traced program, as the runtime performs and records it: shared by
// the __tsan_atomic* entry points (rt_access.cpp) and the libatomic calls compilers emit for
// atomics they do not inline (rt_libatomic.cpp).
#pragma once

#include "rt_atomic_model.hpp"
#include "rt_record.hpp"

namespace frt::atomic_ops {

__extension__ typedef __int128 i128; // the 16-byte atomics

// --- atomics ------------------------------------------------------------------------------------
//
// An atomic operation is synchronization. Relaxed ones only leave an atomic access site (for
// display; atomic sites take no part in READ/WRITE). Stores and RMWs with release, acq_rel or
// seq_cst order record a Release; loads and RMWs with consume, acquire, acq_rel or seq_cst
// record an Acquire of every release heading the release sequence they read
// (rt_atomic_model.hpp: one object per releasing process and sequence; relaxed RMWs continue a
// sequence, plain stores by other processes end it). The object's counters must follow the real
// order of the operations on it, so the operation and the sequence update happen together under the
// object's spin lock. An acquire that cannot see a release newer than the ones this thread
// already acquired on the same object adds no edge and is elided (spin-wait loops would
// otherwise write one event per turn).
//
// Fences (C11 7.17.4): a release fence F followed by an atomic store X, and an atomic load Y
// that reads X followed by an acquire fence G, make F synchronize with G. After a release fence
// the thread's relaxed stores and RMWs record a Release (at X rather than at F: the accesses
// between F and X are ordered too, which can only hide races there, never invent one). Relaxed
// reads leave their address in a small per-thread ring (no lock, no record); an acquire fence
// acquires the heads of each object's current release sequence now and empties the ring: the
// sequence the read saw unless a plain store ended it in between (then nothing is acquired:
// a race may be reported that the fence excluded), ordered after the heads' latest releases
// in it (at least the ones the read saw).
//
// Repeated releases: a thread that releases the same atomic again at the same site, in the same
// release sequence, with no access and no record of its own since its previous release there
// (a counter incremented in a loop with seq_cst RMWs: 10^7 releases a second) writes nothing.
// Its access and its release would stand at the same place in its process as the previous ones
// (the open computation event is empty, the stream unchanged), so every acquire, before or
// after it, that pairs with the previous Release is ordered after exactly what this one would
// order it after. The first access of another site or any record ends the run, and so does a
// plain store that ends the sequence (compiler-rt tsan's fork_deadlock and fork_syscall: 130 MiB
// of identical releases before, a few records now). Acquirers that already acquired that
// Release see no change (o->last_release) and elide their next acquire as well.
//
// A process that is alone (every other one joined, none created since: alone(), asked when its
// open event started and now, as for its accesses) records nothing for its atomics: an edge
// into or out of one of its operations orders nothing the creations and joins do not already
// order, since every later process is created after it and every earlier one was joined before
// it. No counter is taken and the release sequences are left as they were (their heads are
// releases of joined processes, or its own, all before any later acquirer), so later records
// pair as before with older releases only. A GLib main loop or oneTBB's concurrent_queue test
// running single-threaded wrote 3-10·10^6 such events (DESIGN-NOTES "Real programs, seventeenth
// session").

enum Mo { kRelaxed = 0, kConsume = 1, kAcquire = 2, kRelease = 3, kAcqRel = 4, kSeqCst = 5 };

FRT_INLINE int order(int mo) {
    mo &= 0xffff; // gcc may add HLE bits
    return mo > kSeqCst ? kSeqCst : mo;
}
FRT_INLINE bool acquires(int mo) {
    return mo != kRelaxed && mo != kRelease;
}
FRT_INLINE bool releases(int mo) {
    return mo == kRelease || mo == kAcqRel || mo == kSeqCst;
}

enum class OpKind { Load, Store, Rmw };

constexpr u32 kRelaxedReads = sizeof(ThreadState::relaxed_reads) / sizeof(u64);

// `op` performs the operation and returns its result; `wrote(result)` tells whether it wrote
// (a failed compare-exchange did not: it is a load with the failure order `fail_mo`).
template <class F, class W>
auto atomic_op(u64 pc, const volatile void* addr, unsigned size, int mo, int fail_mo, OpKind kind,
               F&& op, W&& wrote) -> decltype(op()) {
    mo = order(mo);
    fail_mo = order(fail_mo);
    const bool may_acq = kind != OpKind::Store && (acquires(mo) || acquires(fail_mo));
    bool may_rel = kind != OpKind::Load && releases(mo);
    const u8 flags = static_cast<u8>(firstrace::format::kAtomic |
                                     (kind != OpKind::Store ? firstrace::format::kRead : 0) |
                                     (kind != OpKind::Load ? firstrace::format::kWrite : 0));
    InterceptorScope scope;
    if (!scope) return op();
    ThreadState* t = scope.thread();
    const u64 a = reinterpret_cast<u64>(addr);
    if (kind != OpKind::Load && t->fence_released) may_rel = true;
    if (kind != OpKind::Store && !acquires(mo)) {
        const u32 last = (t->relaxed_reads_next - 1) % kRelaxedReads;
        if (t->relaxed_reads[last] != a)
            t->relaxed_reads[t->relaxed_reads_next++ % kRelaxedReads] = a;
    }
    if (!may_acq && !may_rel) {
        // A relaxed store ends the release sequences of other processes' releases on the
        // object it writes, if one runs (rt_atomic_model.hpp): serialized with the object's
        // acquires so that an acquire reading it is not paired with a release it cut off. A
        // relaxed RMW continues them.
        ObjEntry* o = kind == OpKind::Store ? find_object(firstrace::format::kObjAtomic,
                                                          const_cast<const void*>(addr))
                                            : nullptr;
        add_access_slow(t, pc, a, size, flags);
        if (o == nullptr) {
            // under the guard, as every other path: libatomic's operation (rt_libatomic.cpp)
            // locks a mutex of its table and copies with memcpy, and those calls are parts of
            // this atomic, not accesses and locks of the program (recorded, they raced with
            // the same object's operations made on the other paths)
            auto result = op();
            scope.exit();
            return result;
        }
        // the guard stays held with the lock: a signal handler's atomic on o passes untraced
        spin_lock(o->spin);
        auto result = op();
        AtomicRecords none;
        atomic_effect(o, t->pid, {false, false, true}, none);
        spin_unlock(o->spin);
        return result;
    }
    ObjEntry* o = object(firstrace::format::kObjAtomic, const_cast<const void*>(addr));
    const u64 c0 = now();
    spin_lock(o->spin);
    auto result = op();
    const bool w = kind != OpKind::Load && wrote(result);
    const bool rel = may_rel && w;
    const bool plain = kind == OpKind::Store;
    bool acq = kind != OpKind::Store && acquires(w || kind == OpKind::Load ? mo : fail_mo);
    if (acq && !rel && t->acq_obj == o &&
        o->last_release.load(std::memory_order_relaxed) == t->acq_stamp)
        acq = false; // no release sequence changed since this thread's last acquire of o
    if ((!acq && !rel && !plain) || (t->event_alone && alone())) {
        spin_unlock(o->spin);
        add_access_slow(t, pc, a, size, flags);
        if (acq || rel || plain) { // alone: no record, so no elision or repeat may refer to one
            t->acq_obj = nullptr;
            t->rel_obj = nullptr;
        }
        return result;
    }
    AtomicRecords records;
    atomic_effect(o, t->pid, {acq, rel, plain}, records);
    const u64 key = site_key(t, pc, flags);
    if (rel && t->rel_obj == o && t->rel_site == key && t->rel_size == size && t->nsites == 0 &&
        t->len == t->rel_len && t->seq == t->rel_seq &&
        repeats_release(o, t->pid, records, t->rel_incarnation, t->rel_counter)) {
        // The same release again with nothing in between (see "Repeated releases" above).
        spin_unlock(o->spin);
        t->acq_obj = nullptr;
        return result;
    }
    const u64 stamp = o->last_release.load(std::memory_order_relaxed);
    spin_unlock(o->spin);
    const u64 c1 = now();
    add_access_slow(t, pc, a, size, flags);
    if (records.count != 0) {
        close_computation(t, c0);
        emit_atomic_records(t, a, records, pc, c0, c1);
        const AtomicRecords::Entry& last = records.entries[records.count - 1];
        if (last.op == firstrace::format::kOpRelease && t->nsites == 0) {
            t->rel_obj = o;
            t->rel_incarnation = last.incarnation;
            t->rel_counter = last.counter;
            t->rel_site = key;
            t->rel_size = size;
            t->rel_len = t->len;
            t->rel_seq = t->seq;
        }
    }
    if (acq) {
        t->acq_obj = o;
        t->acq_stamp = stamp;
    }
    if (rel) t->acq_obj = nullptr;
    return result;
}

// The operations themselves, sequentially consistent whatever the program's order (the model
// above decides what they synchronize).
template <class T> FRT_INLINE T op_load(const volatile T* a) {
    return __atomic_load_n(a, __ATOMIC_SEQ_CST);
}
template <class T> FRT_INLINE void op_store(volatile T* a, T v) {
    __atomic_store_n(a, v, __ATOMIC_SEQ_CST);
}
template <class T> FRT_INLINE T op_exchange(volatile T* a, T v) {
    return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);
}
template <class T> FRT_INLINE bool op_compare_exchange(volatile T* a, T* expected, T v) {
    return __atomic_compare_exchange_n(a, expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}
#define FRT_ATOMIC_FETCH(name)                                                                     \
    template <class T> FRT_INLINE T op_fetch_##name(volatile T* a, T v) {                          \
        return __atomic_fetch_##name(a, v, __ATOMIC_SEQ_CST);                                      \
    }
FRT_ATOMIC_FETCH(add)
FRT_ATOMIC_FETCH(sub)
FRT_ATOMIC_FETCH(and)
FRT_ATOMIC_FETCH(or)
FRT_ATOMIC_FETCH(xor)
FRT_ATOMIC_FETCH(nand)
#undef FRT_ATOMIC_FETCH

// 16-byte atomics (gcc emits __tsan_atomic128_* for __int128, clang with -mcx16): one lock of
// the runtime's serializes them, as in compiler-rt's ThreadSanitizer, since the builtins on 16
// bytes would need libatomic. Every instrumented 16-byte atomic goes through here.
inline std::atomic<u32> lock128;
struct Lock128 {
    Lock128() { spin_lock(lock128); }
    ~Lock128() { spin_unlock(lock128); }
    Lock128(const Lock128&) = delete;
    Lock128& operator=(const Lock128&) = delete;
};
FRT_INLINE i128 op_load(const volatile i128* a) {
    Lock128 lock;
    return *a;
}
FRT_INLINE void op_store(volatile i128* a, i128 v) {
    Lock128 lock;
    *a = v;
}
template <class F> FRT_INLINE i128 op_update(volatile i128* a, F new_value) {
    Lock128 lock;
    const i128 old = *a;
    *a = new_value(old);
    return old;
}
FRT_INLINE i128 op_exchange(volatile i128* a, i128 v) {
    return op_update(a, [v](i128) { return v; });
}
FRT_INLINE bool op_compare_exchange(volatile i128* a, i128* expected, i128 v) {
    Lock128 lock;
    const i128 old = *a;
    if (old == *expected) {
        *a = v;
        return true;
    }
    *expected = old;
    return false;
}
FRT_INLINE i128 op_fetch_add(volatile i128* a, i128 v) {
    return op_update(a, [v](i128 old) { return old + v; });
}
FRT_INLINE i128 op_fetch_sub(volatile i128* a, i128 v) {
    return op_update(a, [v](i128 old) { return old - v; });
}
FRT_INLINE i128 op_fetch_and(volatile i128* a, i128 v) {
    return op_update(a, [v](i128 old) { return old & v; });
}
FRT_INLINE i128 op_fetch_or(volatile i128* a, i128 v) {
    return op_update(a, [v](i128 old) { return old | v; });
}
FRT_INLINE i128 op_fetch_xor(volatile i128* a, i128 v) {
    return op_update(a, [v](i128 old) { return old ^ v; });
}
FRT_INLINE i128 op_fetch_nand(volatile i128* a, i128 v) {
    return op_update(a, [v](i128 old) { return ~(old & v); });
}

constexpr auto kAlways = [](auto) { return true; };

} // namespace frt::atomic_ops
