// The libatomic calls compilers emit for atomics they do not expand inline: clang's 16-byte
// atomics without -mcx16 (`__atomic_load_16`, ...), atomics on objects of other sizes
// (`std::atomic<T>` of a 24-byte T: the generic `__atomic_load(size, ...)`), and any size when
// the object may be misaligned. The instrumentation never sees these operations (they are calls
// by the front end, not atomic instructions), so without this file they synchronized nothing and
// the data they publish looked racy. Each call is an atomic operation of its size, order and
// kind, recorded as the __tsan_atomic* entry points record theirs (rt_atomic_op.hpp).
//
// The operation itself is libatomic's (its lock table for sizes without a lock-free
// instruction, shared with every library that calls it). A program linked without libatomic
// (the runtime's definitions satisfied its calls) gets the runtime's: the builtins up to 8
// bytes, the 16-byte lock of rt_atomic_op.hpp otherwise.
#include "rt_atomic_op.hpp"
#include "rt_real.hpp"

using namespace frt;
using namespace frt::atomic_ops;

namespace {

// Bytes of an object no lock-free instruction covers, under the 16-byte lock (only when
// libatomic is not in the process: then every such operation comes here).
void copy_locked(volatile unsigned char* to, const volatile unsigned char* from, unsigned long n) {
    for (unsigned long i = 0; i < n; ++i)
        to[i] = from[i];
}
bool equal_bytes(const volatile unsigned char* a, const volatile unsigned char* b,
                 unsigned long n) {
    for (unsigned long i = 0; i < n; ++i)
        if (a[i] != b[i]) return false;
    return true;
}

} // namespace

#define FRT_PC() (reinterpret_cast<u64>(__builtin_return_address(0)))

// --- the generic calls: any size ----------------------------------------------------------

FRT_DECLARE_REAL_TYPED(__atomic_load, void (*)(unsigned long, const volatile void*, void*, int));
FRT_DECLARE_REAL_TYPED(__atomic_store, void (*)(unsigned long, volatile void*, void*, int));
FRT_DECLARE_REAL_TYPED(__atomic_exchange,
                       void (*)(unsigned long, volatile void*, void*, void*, int));
FRT_DECLARE_REAL_TYPED(__atomic_compare_exchange,
                       bool (*)(unsigned long, volatile void*, void*, void*, int, int));

FRT_EXPORT void frt_libatomic_load(unsigned long size, const volatile void* mem, void* ret,
                                   int mo) __asm__("__atomic_load");
FRT_EXPORT void frt_libatomic_load(unsigned long size, const volatile void* mem, void* ret,
                                   int mo) {
    atomic_op(
        FRT_PC(), mem, static_cast<unsigned>(size), mo, mo, OpKind::Load,
        [&] {
            if (auto real = REAL(__atomic_load)) {
                real(size, mem, ret, mo);
            } else {
                Lock128 lock;
                copy_locked(static_cast<unsigned char*>(ret),
                            static_cast<const volatile unsigned char*>(mem), size);
            }
            return 0;
        },
        kAlways);
}

FRT_EXPORT void frt_libatomic_store(unsigned long size, volatile void* mem, void* val,
                                    int mo) __asm__("__atomic_store");
FRT_EXPORT void frt_libatomic_store(unsigned long size, volatile void* mem, void* val, int mo) {
    atomic_op(
        FRT_PC(), mem, static_cast<unsigned>(size), mo, mo, OpKind::Store,
        [&] {
            if (auto real = REAL(__atomic_store)) {
                real(size, mem, val, mo);
            } else {
                Lock128 lock;
                copy_locked(static_cast<volatile unsigned char*>(mem),
                            static_cast<const unsigned char*>(val), size);
            }
            return 0;
        },
        kAlways);
}

FRT_EXPORT void frt_libatomic_exchange(unsigned long size, volatile void* mem, void* val, void* ret,
                                       int mo) __asm__("__atomic_exchange");
FRT_EXPORT void frt_libatomic_exchange(unsigned long size, volatile void* mem, void* val, void* ret,
                                       int mo) {
    atomic_op(
        FRT_PC(), mem, static_cast<unsigned>(size), mo, mo, OpKind::Rmw,
        [&] {
            if (auto real = REAL(__atomic_exchange)) {
                real(size, mem, val, ret, mo);
            } else {
                Lock128 lock;
                copy_locked(static_cast<unsigned char*>(ret),
                            static_cast<const volatile unsigned char*>(mem), size);
                copy_locked(static_cast<volatile unsigned char*>(mem),
                            static_cast<const unsigned char*>(val), size);
            }
            return 0;
        },
        kAlways);
}

FRT_EXPORT bool frt_libatomic_compare_exchange(unsigned long size, volatile void* mem,
                                               void* expected, void* desired, int mo,
                                               int fail_mo) __asm__("__atomic_compare_exchange");
FRT_EXPORT bool frt_libatomic_compare_exchange(unsigned long size, volatile void* mem,
                                               void* expected, void* desired, int mo, int fail_mo) {
    return atomic_op(
        FRT_PC(), mem, static_cast<unsigned>(size), mo, fail_mo, OpKind::Rmw,
        [&] {
            if (auto real = REAL(__atomic_compare_exchange))
                return real(size, mem, expected, desired, mo, fail_mo);
            Lock128 lock;
            auto* object = static_cast<volatile unsigned char*>(mem);
            if (equal_bytes(object, static_cast<const unsigned char*>(expected), size)) {
                copy_locked(object, static_cast<const unsigned char*>(desired), size);
                return true;
            }
            copy_locked(static_cast<unsigned char*>(expected), object, size);
            return false;
        },
        [](bool swapped) { return swapped; });
}

// --- the sized calls: 1, 2, 4, 8 and 16 bytes ----------------------------------------------

#define FRT_LIBATOMIC_CALL(ret, name, params, args, fallback, kind)                                \
    FRT_DECLARE_REAL_TYPED(name, ret(*) params);                                                   \
    FRT_EXPORT ret frt_libatomic##name params __asm__(#name);                                      \
    FRT_EXPORT ret frt_libatomic##name params {                                                    \
        return atomic_op(                                                                          \
            FRT_PC(), mem, sizeof(T), mo, mo, kind,                                                \
            [&] {                                                                                  \
                if (auto real = REAL(name)) return real args;                                      \
                return fallback;                                                                   \
            },                                                                                     \
            kAlways);                                                                              \
    }

// fetch_OP returns the old value, OP_fetch the new one
#define FRT_LIBATOMIC_FETCH(n, op, new_value)                                                      \
    FRT_LIBATOMIC_CALL(T, __atomic_fetch_##op##_##n, (volatile void* mem, T v, int mo),            \
                       (mem, v, mo), op_fetch_##op(static_cast<volatile T*>(mem), v), OpKind::Rmw) \
    FRT_LIBATOMIC_CALL(T, __atomic_##op##_fetch_##n, (volatile void* mem, T v, int mo),            \
                       (mem, v, mo), ([&] {                                                        \
                           const T old = op_fetch_##op(static_cast<volatile T*>(mem), v);          \
                           return static_cast<T>(new_value);                                       \
                       }()),                                                                       \
                       OpKind::Rmw)

#define FRT_LIBATOMIC_SIZE(n, Type)                                                                \
    namespace libatomic_##n {                                                                      \
        using T = Type;                                                                            \
        FRT_LIBATOMIC_CALL(T, __atomic_load_##n, (const volatile void* mem, int mo), (mem, mo),    \
                           op_load(static_cast<const volatile T*>(mem)), OpKind::Load)             \
        FRT_DECLARE_REAL_TYPED(__atomic_store_##n, void (*)(volatile void*, T, int));              \
        FRT_EXPORT void frt_libatomic_store_##n(volatile void* mem, T v,                           \
                                                int mo) __asm__("__atomic_store_" #n);             \
        FRT_EXPORT void frt_libatomic_store_##n(volatile void* mem, T v, int mo) {                 \
            atomic_op(                                                                             \
                FRT_PC(), mem, sizeof(T), mo, mo, OpKind::Store,                                   \
                [&] {                                                                              \
                    if (auto real = REAL(__atomic_store_##n))                                      \
                        real(mem, v, mo);                                                          \
                    else                                                                           \
                        op_store(static_cast<volatile T*>(mem), v);                                \
                    return 0;                                                                      \
                },                                                                                 \
                kAlways);                                                                          \
        }                                                                                          \
        FRT_LIBATOMIC_CALL(T, __atomic_exchange_##n, (volatile void* mem, T v, int mo),            \
                           (mem, v, mo), op_exchange(static_cast<volatile T*>(mem), v),            \
                           OpKind::Rmw)                                                            \
        FRT_LIBATOMIC_FETCH(n, add, old + v)                                                       \
        FRT_LIBATOMIC_FETCH(n, sub, old - v)                                                       \
        FRT_LIBATOMIC_FETCH(n, and, old& v)                                                        \
        FRT_LIBATOMIC_FETCH(n, or, old | v)                                                        \
        FRT_LIBATOMIC_FETCH(n, xor, old ^ v)                                                       \
        FRT_LIBATOMIC_FETCH(n, nand, ~(old & v))                                                   \
        FRT_DECLARE_REAL_TYPED(__atomic_compare_exchange_##n,                                      \
                               bool (*)(volatile void*, void*, T, int, int));                      \
        FRT_EXPORT bool frt_libatomic_compare_exchange_##n(                                        \
            volatile void* mem, void* expected, T v, int mo,                                       \
            int fail_mo) __asm__("__atomic_compare_exchange_" #n);                                 \
        FRT_EXPORT bool frt_libatomic_compare_exchange_##n(volatile void* mem, void* expected,     \
                                                           T v, int mo, int fail_mo) {             \
            return atomic_op(                                                                      \
                FRT_PC(), mem, sizeof(T), mo, fail_mo, OpKind::Rmw,                                \
                [&] {                                                                              \
                    if (auto real = REAL(__atomic_compare_exchange_##n))                           \
                        return real(mem, expected, v, mo, fail_mo);                                \
                    return op_compare_exchange(static_cast<volatile T*>(mem),                      \
                                               static_cast<T*>(expected), v);                      \
                },                                                                                 \
                [](bool swapped) { return swapped; });                                             \
        }                                                                                          \
    }

FRT_LIBATOMIC_SIZE(1, std::uint8_t)
FRT_LIBATOMIC_SIZE(2, std::uint16_t)
FRT_LIBATOMIC_SIZE(4, std::uint32_t)
FRT_LIBATOMIC_SIZE(8, std::uint64_t)
FRT_LIBATOMIC_SIZE(16, i128)
