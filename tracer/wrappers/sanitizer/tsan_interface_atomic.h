// <sanitizer/tsan_interface_atomic.h> for compilers that ship none (gcc): the ThreadSanitizer
// atomic operations the firstrace runtime implements (tracer/src/rt_access.cpp: the calls clang
// and gcc emit for atomics under -fsanitize=thread). firstrace-cc searches this directory last
// (-idirafter): clang's own copy of the header comes first.
#ifndef FIRSTRACE_SANITIZER_TSAN_INTERFACE_ATOMIC_H
#define FIRSTRACE_SANITIZER_TSAN_INTERFACE_ATOMIC_H

#ifdef __cplusplus
extern "C" {
#endif

typedef char __tsan_atomic8;
typedef short __tsan_atomic16;
typedef int __tsan_atomic32;
typedef long __tsan_atomic64;
#if defined(__SIZEOF_INT128__)
__extension__ typedef __int128 __tsan_atomic128;
#define __TSAN_HAS_INT128 1
#else
#define __TSAN_HAS_INT128 0
#endif

// The C11 / C++11 memory orders, in their order there.
typedef enum {
    __tsan_memory_order_relaxed,
    __tsan_memory_order_consume,
    __tsan_memory_order_acquire,
    __tsan_memory_order_release,
    __tsan_memory_order_acq_rel,
    __tsan_memory_order_seq_cst
} __tsan_memory_order;

// The functions, declared as gcc declares its built-ins of the same names under
// -fsanitize=thread (gcc/sanitizer.def: unsigned values, `volatile void*` objects, `int`
// orders, a `_Bool` for compare-and-exchange), which a C++ declaration must match. A program
// written against LLVM's header (its typedefs above, `__tsan_memory_order` arguments) calls them
// unchanged: the conversions are implicit. The runtime's definitions (rt_access.cpp) have the
// same layout.
#ifdef __cplusplus
#define FIRSTRACE_TSAN_BOOL bool
#else
#define FIRSTRACE_TSAN_BOOL _Bool
#endif
#define FIRSTRACE_TSAN_RMW(bits, U, op) U __tsan_atomic##bits##_##op(volatile void* a, U v, int mo);
#define FIRSTRACE_TSAN_ATOMICS(bits, U)                                                            \
    U __tsan_atomic##bits##_load(const volatile void* a, int mo);                                  \
    void __tsan_atomic##bits##_store(volatile void* a, U v, int mo);                               \
    FIRSTRACE_TSAN_RMW(bits, U, exchange)                                                          \
    FIRSTRACE_TSAN_RMW(bits, U, fetch_add)                                                         \
    FIRSTRACE_TSAN_RMW(bits, U, fetch_sub)                                                         \
    FIRSTRACE_TSAN_RMW(bits, U, fetch_and)                                                         \
    FIRSTRACE_TSAN_RMW(bits, U, fetch_or)                                                          \
    FIRSTRACE_TSAN_RMW(bits, U, fetch_xor)                                                         \
    FIRSTRACE_TSAN_RMW(bits, U, fetch_nand)                                                        \
    FIRSTRACE_TSAN_BOOL __tsan_atomic##bits##_compare_exchange_strong(volatile void* a, void* c,   \
                                                                      U v, int mo, int fail_mo);   \
    FIRSTRACE_TSAN_BOOL __tsan_atomic##bits##_compare_exchange_weak(volatile void* a, void* c,     \
                                                                    U v, int mo, int fail_mo);     \
    U __tsan_atomic##bits##_compare_exchange_val(volatile void* a, U c, U v, int mo, int fail_mo);

FIRSTRACE_TSAN_ATOMICS(8, unsigned char)
FIRSTRACE_TSAN_ATOMICS(16, unsigned short)
FIRSTRACE_TSAN_ATOMICS(32, unsigned int)
FIRSTRACE_TSAN_ATOMICS(64, unsigned long)
#if __TSAN_HAS_INT128
__extension__ typedef unsigned __int128 firstrace_tsan_u128;
FIRSTRACE_TSAN_ATOMICS(128, firstrace_tsan_u128)
#endif
#undef FIRSTRACE_TSAN_ATOMICS
#undef FIRSTRACE_TSAN_RMW
#undef FIRSTRACE_TSAN_BOOL

void __tsan_atomic_thread_fence(int mo);
void __tsan_atomic_signal_fence(int mo);

#ifdef __cplusplus
} // extern "C"
#endif

#endif
