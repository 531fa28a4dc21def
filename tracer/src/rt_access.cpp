// The entry points gcc and clang emit under -fsanitize=thread: plain, unaligned, volatile and
// range accesses, function entry/exit (the shadow stack), vptr accesses, and the
// __tsan_atomic* family. Checked against gcc 12 and clang 14 (see tracer/README.md).
#include "rt_atomic_model.hpp"
#include "rt_record.hpp"

using namespace frt;

#define FRT_PC() (reinterpret_cast<u64>(__builtin_return_address(0)))

FRT_EXPORT void __tsan_init() {
    ensure_init();
    mark_instrumented();
}

// --- plain accesses -------------------------------------------------------------------------

#define FRT_ACCESS(name, size, flags)                                                              \
    FRT_EXPORT void name(void* addr) {                                                             \
        on_access(FRT_PC(), reinterpret_cast<u64>(addr), size, flags);                             \
    }

#define FRT_ACCESS_ALL(prefix)                                                                     \
    FRT_ACCESS(__tsan_##prefix##read1, 1, firstrace::format::kRead)                                \
    FRT_ACCESS(__tsan_##prefix##read2, 2, firstrace::format::kRead)                                \
    FRT_ACCESS(__tsan_##prefix##read4, 4, firstrace::format::kRead)                                \
    FRT_ACCESS(__tsan_##prefix##read8, 8, firstrace::format::kRead)                                \
    FRT_ACCESS(__tsan_##prefix##read16, 16, firstrace::format::kRead)                              \
    FRT_ACCESS(__tsan_##prefix##write1, 1, firstrace::format::kWrite)                              \
    FRT_ACCESS(__tsan_##prefix##write2, 2, firstrace::format::kWrite)                              \
    FRT_ACCESS(__tsan_##prefix##write4, 4, firstrace::format::kWrite)                              \
    FRT_ACCESS(__tsan_##prefix##write8, 8, firstrace::format::kWrite)                              \
    FRT_ACCESS(__tsan_##prefix##write16, 16, firstrace::format::kWrite)

FRT_ACCESS_ALL()
FRT_ACCESS_ALL(unaligned_)
FRT_ACCESS_ALL(volatile_)

// The _pc variants pass the program counter explicitly.
#define FRT_ACCESS_PC(name, size, flags)                                                           \
    FRT_EXPORT void name(void* addr, void* pc) {                                                   \
        on_access(reinterpret_cast<u64>(pc), reinterpret_cast<u64>(addr), size, flags);            \
    }
FRT_ACCESS_PC(__tsan_read1_pc, 1, firstrace::format::kRead)
FRT_ACCESS_PC(__tsan_read2_pc, 2, firstrace::format::kRead)
FRT_ACCESS_PC(__tsan_read4_pc, 4, firstrace::format::kRead)
FRT_ACCESS_PC(__tsan_read8_pc, 8, firstrace::format::kRead)
FRT_ACCESS_PC(__tsan_read16_pc, 16, firstrace::format::kRead)
FRT_ACCESS_PC(__tsan_write1_pc, 1, firstrace::format::kWrite)
FRT_ACCESS_PC(__tsan_write2_pc, 2, firstrace::format::kWrite)
FRT_ACCESS_PC(__tsan_write4_pc, 4, firstrace::format::kWrite)
FRT_ACCESS_PC(__tsan_write8_pc, 8, firstrace::format::kWrite)
FRT_ACCESS_PC(__tsan_write16_pc, 16, firstrace::format::kWrite)

FRT_EXPORT void __tsan_read_range(void* addr, unsigned long size) {
    on_access(FRT_PC(), reinterpret_cast<u64>(addr), size, firstrace::format::kRead);
}
FRT_EXPORT void __tsan_write_range(void* addr, unsigned long size) {
    on_access(FRT_PC(), reinterpret_cast<u64>(addr), size, firstrace::format::kWrite);
}
FRT_EXPORT void __tsan_read_range_pc(void* addr, unsigned long size, void* pc) {
    on_access(reinterpret_cast<u64>(pc), reinterpret_cast<u64>(addr), size,
              firstrace::format::kRead);
}
FRT_EXPORT void __tsan_write_range_pc(void* addr, unsigned long size, void* pc) {
    on_access(reinterpret_cast<u64>(pc), reinterpret_cast<u64>(addr), size,
              firstrace::format::kWrite);
}

// vptr: a read of the object's vtable pointer; an update is a write only when it changes it
// (constructors of derived classes rewrite the same vptr).
FRT_EXPORT void __tsan_vptr_read(void** vptr_p) {
    on_access(FRT_PC(), reinterpret_cast<u64>(vptr_p), sizeof(void*), firstrace::format::kRead);
}
FRT_EXPORT void __tsan_vptr_update(void** vptr_p, void* new_val) {
    if (*vptr_p != new_val)
        on_access(FRT_PC(), reinterpret_cast<u64>(vptr_p), sizeof(void*),
                  firstrace::format::kWrite);
}

// --- shadow stack -----------------------------------------------------------------------------

FRT_EXPORT void __tsan_func_entry(void* caller_pc) {
    ThreadState* t = tls_state;
    if (FRT_UNLIKELY(t == nullptr)) {
        t = attach_thread();
        if (t == nullptr) return;
    }
    const u32 d = t->depth++;
    if (FRT_LIKELY(d < kMaxStack)) {
        const u64 pc = reinterpret_cast<u64>(caller_pc);
        t->stack[d] = pc;
        t->stack_hash = t->stack_hashes[d + 1] = stack_hash_push(t->stack_hashes[d], pc);
    }
}

FRT_EXPORT void __tsan_func_exit() {
    ThreadState* t = tls_state;
    if (FRT_LIKELY(t != nullptr) && t->depth != 0) {
        const u32 d = --t->depth;
        t->stack_hash = t->stack_hashes[d < kMaxStack ? d : kMaxStack];
    }
}

// --- atomics ------------------------------------------------------------------------------------
//
// An atomic operation is synchronization. Relaxed ones only leave an atomic access site (for
// display; atomic sites take no part in READ/WRITE). Stores and RMWs with release, acq_rel or
// seq_cst order record a Release; loads and RMWs with consume, acquire, acq_rel or seq_cst
// record an Acquire of every release heading the release sequence they read
// (rt_atomic_model.hpp: one object per releasing process and sequence; relaxed RMWs continue a
// sequence, plain stores end it). The object's counters must follow the real order of the
// operations on it, so the operation and the sequence update happen together under the
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

namespace {

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
        // A relaxed store ends the release sequence of the object it writes, if one runs
        // (rt_atomic_model.hpp): serialized with the object's acquires so that an acquire
        // reading it is not paired with the release it cut off. A relaxed RMW continues it.
        ObjEntry* o = kind == OpKind::Store ? find_object(firstrace::format::kObjAtomic,
                                                          const_cast<const void*>(addr))
                                            : nullptr;
        add_access_slow(t, pc, a, size, flags);
        if (o == nullptr) {
            scope.exit();
            return op();
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
    if (!acq && !rel && !plain) {
        spin_unlock(o->spin);
        add_access_slow(t, pc, a, size, flags);
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

constexpr auto kAlways = [](auto) { return true; };

} // namespace

#define FRT_ATOMIC_FAMILY(bits, T)                                                                 \
    FRT_EXPORT T __tsan_atomic##bits##_load(const volatile T* a, int mo) {                         \
        return atomic_op(                                                                          \
            FRT_PC(), a, sizeof(T), mo, mo, OpKind::Load,                                          \
            [&] { return __atomic_load_n(a, __ATOMIC_SEQ_CST); }, kAlways);                        \
    }                                                                                              \
    FRT_EXPORT void __tsan_atomic##bits##_store(volatile T* a, T v, int mo) {                      \
        atomic_op(                                                                                 \
            FRT_PC(), a, sizeof(T), mo, mo, OpKind::Store,                                         \
            [&] {                                                                                  \
                __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                          \
                return 0;                                                                          \
            },                                                                                     \
            kAlways);                                                                              \
    }                                                                                              \
    FRT_EXPORT T __tsan_atomic##bits##_exchange(volatile T* a, T v, int mo) {                      \
        return atomic_op(                                                                          \
            FRT_PC(), a, sizeof(T), mo, mo, OpKind::Rmw,                                           \
            [&] { return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST); }, kAlways);                 \
    }                                                                                              \
    FRT_EXPORT T __tsan_atomic##bits##_fetch_add(volatile T* a, T v, int mo) {                     \
        return atomic_op(                                                                          \
            FRT_PC(), a, sizeof(T), mo, mo, OpKind::Rmw,                                           \
            [&] { return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST); }, kAlways);                  \
    }                                                                                              \
    FRT_EXPORT T __tsan_atomic##bits##_fetch_sub(volatile T* a, T v, int mo) {                     \
        return atomic_op(                                                                          \
            FRT_PC(), a, sizeof(T), mo, mo, OpKind::Rmw,                                           \
            [&] { return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST); }, kAlways);                  \
    }                                                                                              \
    FRT_EXPORT T __tsan_atomic##bits##_fetch_and(volatile T* a, T v, int mo) {                     \
        return atomic_op(                                                                          \
            FRT_PC(), a, sizeof(T), mo, mo, OpKind::Rmw,                                           \
            [&] { return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST); }, kAlways);                  \
    }                                                                                              \
    FRT_EXPORT T __tsan_atomic##bits##_fetch_or(volatile T* a, T v, int mo) {                      \
        return atomic_op(                                                                          \
            FRT_PC(), a, sizeof(T), mo, mo, OpKind::Rmw,                                           \
            [&] { return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST); }, kAlways);                   \
    }                                                                                              \
    FRT_EXPORT T __tsan_atomic##bits##_fetch_xor(volatile T* a, T v, int mo) {                     \
        return atomic_op(                                                                          \
            FRT_PC(), a, sizeof(T), mo, mo, OpKind::Rmw,                                           \
            [&] { return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST); }, kAlways);                  \
    }                                                                                              \
    FRT_EXPORT T __tsan_atomic##bits##_fetch_nand(volatile T* a, T v, int mo) {                    \
        return atomic_op(                                                                          \
            FRT_PC(), a, sizeof(T), mo, mo, OpKind::Rmw,                                           \
            [&] { return __atomic_fetch_nand(a, v, __ATOMIC_SEQ_CST); }, kAlways);                 \
    }                                                                                              \
    FRT_EXPORT int __tsan_atomic##bits##_compare_exchange_strong(volatile T* a, T* c, T v, int mo, \
                                                                 int fmo) {                        \
        return atomic_op(                                                                          \
            FRT_PC(), a, sizeof(T), mo, fmo, OpKind::Rmw,                                          \
            [&] {                                                                                  \
                return static_cast<int>(__atomic_compare_exchange_n(                               \
                    a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));                          \
            },                                                                                     \
            [](int ok) { return ok != 0; });                                                       \
    }                                                                                              \
    FRT_EXPORT int __tsan_atomic##bits##_compare_exchange_weak(volatile T* a, T* c, T v, int mo,   \
                                                               int fmo) {                          \
        return atomic_op(                                                                          \
            FRT_PC(), a, sizeof(T), mo, fmo, OpKind::Rmw,                                          \
            [&] {                                                                                  \
                return static_cast<int>(__atomic_compare_exchange_n(                               \
                    a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));                          \
            },                                                                                     \
            [](int ok) { return ok != 0; });                                                       \
    }                                                                                              \
    FRT_EXPORT T __tsan_atomic##bits##_compare_exchange_val(volatile T* a, T c, T v, int mo,       \
                                                            int fmo) {                             \
        const T expected = c;                                                                      \
        return atomic_op(                                                                          \
            FRT_PC(), a, sizeof(T), mo, fmo, OpKind::Rmw,                                          \
            [&] {                                                                                  \
                __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);  \
                return c;                                                                          \
            },                                                                                     \
            [&](T old) { return old == expected; });                                               \
    }

FRT_ATOMIC_FAMILY(8, char)
FRT_ATOMIC_FAMILY(16, short)
FRT_ATOMIC_FAMILY(32, int)
FRT_ATOMIC_FAMILY(64, long)

// Fences: see "atomics" above.
FRT_EXPORT void __tsan_atomic_thread_fence(int mo) {
    mo = order(mo);
    __atomic_thread_fence(mo);
    InterceptorScope scope;
    if (!scope) return;
    ThreadState* t = scope.thread();
    if (releases(mo)) t->fence_released = true;
    if (!acquires(mo)) return;
    const u64 pc = reinterpret_cast<u64>(__builtin_return_address(0));
    bool closed = false;
    for (u64& a : t->relaxed_reads) {
        if (a == 0) continue;
        ObjEntry* o = object(firstrace::format::kObjAtomic, reinterpret_cast<const void*>(a));
        const u64 c0 = now();
        AtomicRecords records;
        spin_lock(o->spin);
        atomic_effect(o, t->pid, {true, false, false}, records);
        spin_unlock(o->spin);
        if (records.count != 0) {
            if (!closed) close_computation(t, c0);
            closed = true;
            emit_atomic_records(t, a, records, pc, c0, now());
        }
        a = 0;
    }
    t->acq_obj = nullptr;
}
FRT_EXPORT void __tsan_atomic_signal_fence(int mo) {
    __atomic_signal_fence(order(mo));
}

// Called by the memcpy/memmove/memset interceptors (rt_memory.c). Only threads that already
// have a state are traced here: these functions run during thread creation too.
extern "C" void frt_record_memory(void* pc, const void* addr, unsigned long size, int write) {
    if (FRT_UNLIKELY(in_openmp_runtime(reinterpret_cast<u64>(pc)))) return;
    InterceptorScope scope(enter_attached());
    if (!scope) return;
    add_access_slow(scope.thread(), reinterpret_cast<u64>(pc), reinterpret_cast<u64>(addr), size,
                    write ? firstrace::format::kWrite : firstrace::format::kRead);
}
