// The entry points gcc and clang emit under -fsanitize=thread: plain, unaligned, volatile and
// range accesses, function entry/exit (the shadow stack), vptr accesses, and the
// __tsan_atomic* family. Checked against gcc 12 and clang 14 (see tracer/README.md).
#include "rt_atomic_op.hpp"

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
// (the model: rt_atomic_op.hpp)

using namespace frt::atomic_ops;

#define FRT_ATOMIC_FAMILY(bits, T)                                                                 \
    FRT_EXPORT T __tsan_atomic##bits##_load(const volatile T* a, int mo) {                         \
        return atomic_op(                                                                          \
            FRT_PC(), a, sizeof(T), mo, mo, OpKind::Load, [&] { return op_load(a); }, kAlways);    \
    }                                                                                              \
    FRT_EXPORT void __tsan_atomic##bits##_store(volatile T* a, T v, int mo) {                      \
        atomic_op(                                                                                 \
            FRT_PC(), a, sizeof(T), mo, mo, OpKind::Store,                                         \
            [&] {                                                                                  \
                op_store(a, v);                                                                    \
                return 0;                                                                          \
            },                                                                                     \
            kAlways);                                                                              \
    }                                                                                              \
    FRT_EXPORT T __tsan_atomic##bits##_exchange(volatile T* a, T v, int mo) {                      \
        return atomic_op(                                                                          \
            FRT_PC(), a, sizeof(T), mo, mo, OpKind::Rmw, [&] { return op_exchange(a, v); },        \
            kAlways);                                                                              \
    }                                                                                              \
    FRT_EXPORT T __tsan_atomic##bits##_fetch_add(volatile T* a, T v, int mo) {                     \
        return atomic_op(                                                                          \
            FRT_PC(), a, sizeof(T), mo, mo, OpKind::Rmw, [&] { return op_fetch_add(a, v); },       \
            kAlways);                                                                              \
    }                                                                                              \
    FRT_EXPORT T __tsan_atomic##bits##_fetch_sub(volatile T* a, T v, int mo) {                     \
        return atomic_op(                                                                          \
            FRT_PC(), a, sizeof(T), mo, mo, OpKind::Rmw, [&] { return op_fetch_sub(a, v); },       \
            kAlways);                                                                              \
    }                                                                                              \
    FRT_EXPORT T __tsan_atomic##bits##_fetch_and(volatile T* a, T v, int mo) {                     \
        return atomic_op(                                                                          \
            FRT_PC(), a, sizeof(T), mo, mo, OpKind::Rmw, [&] { return op_fetch_and(a, v); },       \
            kAlways);                                                                              \
    }                                                                                              \
    FRT_EXPORT T __tsan_atomic##bits##_fetch_or(volatile T* a, T v, int mo) {                      \
        return atomic_op(                                                                          \
            FRT_PC(), a, sizeof(T), mo, mo, OpKind::Rmw, [&] { return op_fetch_or(a, v); },        \
            kAlways);                                                                              \
    }                                                                                              \
    FRT_EXPORT T __tsan_atomic##bits##_fetch_xor(volatile T* a, T v, int mo) {                     \
        return atomic_op(                                                                          \
            FRT_PC(), a, sizeof(T), mo, mo, OpKind::Rmw, [&] { return op_fetch_xor(a, v); },       \
            kAlways);                                                                              \
    }                                                                                              \
    FRT_EXPORT T __tsan_atomic##bits##_fetch_nand(volatile T* a, T v, int mo) {                    \
        return atomic_op(                                                                          \
            FRT_PC(), a, sizeof(T), mo, mo, OpKind::Rmw, [&] { return op_fetch_nand(a, v); },      \
            kAlways);                                                                              \
    }                                                                                              \
    FRT_EXPORT int __tsan_atomic##bits##_compare_exchange_strong(volatile T* a, T* c, T v, int mo, \
                                                                 int fmo) {                        \
        return atomic_op(                                                                          \
            FRT_PC(), a, sizeof(T), mo, fmo, OpKind::Rmw,                                          \
            [&] { return static_cast<int>(op_compare_exchange(a, c, v)); },                        \
            [](int ok) { return ok != 0; });                                                       \
    }                                                                                              \
    FRT_EXPORT int __tsan_atomic##bits##_compare_exchange_weak(volatile T* a, T* c, T v, int mo,   \
                                                               int fmo) {                          \
        return atomic_op(                                                                          \
            FRT_PC(), a, sizeof(T), mo, fmo, OpKind::Rmw,                                          \
            [&] { return static_cast<int>(op_compare_exchange(a, c, v)); },                        \
            [](int ok) { return ok != 0; });                                                       \
    }                                                                                              \
    FRT_EXPORT T __tsan_atomic##bits##_compare_exchange_val(volatile T* a, T c, T v, int mo,       \
                                                            int fmo) {                             \
        const T expected = c;                                                                      \
        return atomic_op(                                                                          \
            FRT_PC(), a, sizeof(T), mo, fmo, OpKind::Rmw,                                          \
            [&] {                                                                                  \
                op_compare_exchange(a, &c, v);                                                     \
                return c;                                                                          \
            },                                                                                     \
            [&](T old) { return old == expected; });                                               \
    }

FRT_ATOMIC_FAMILY(8, char)
FRT_ATOMIC_FAMILY(16, short)
FRT_ATOMIC_FAMILY(32, int)
FRT_ATOMIC_FAMILY(64, long)
FRT_ATOMIC_FAMILY(128, i128)

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
// have a state are traced here: these functions run during thread creation too. The access
// path as for an instrumented access: a program that copies rows of a block with memcpy (x264's
// motion compensation) continues the site's strided run without entering the slow path (which
// every call took before: 8 % of x264's traced run in this function's entry alone).
extern "C" void frt_record_memory(void* pc, const void* addr, unsigned long size, int write) {
    if (FRT_UNLIKELY(in_openmp_runtime(reinterpret_cast<u64>(pc)))) return;
    if (tls_state == nullptr) return; // (on_access would attach the thread)
    on_access(reinterpret_cast<u64>(pc), reinterpret_cast<u64>(addr), size,
              write ? firstrace::format::kWrite : firstrace::format::kRead);
}
// memcpy/memmove: the read of the source and the write of the destination in one call (x264
// calls memcpy for every 4- and 8-byte motion vector copy: the calls were the cost).
extern "C" void frt_record_copy(void* pc, void* dst, const void* src, unsigned long size) {
    if (FRT_UNLIKELY(in_openmp_runtime(reinterpret_cast<u64>(pc)))) return;
    if (tls_state == nullptr) return;
    on_access(reinterpret_cast<u64>(pc), reinterpret_cast<u64>(src), size,
              firstrace::format::kRead);
    on_access(reinterpret_cast<u64>(pc), reinterpret_cast<u64>(dst), size,
              firstrace::format::kWrite);
}
