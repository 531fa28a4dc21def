// The real functions behind the interceptors, resolved once at initialisation.
//
// Each interceptor file declares the real functions it forwards to with FRT_DECLARE_REAL; the
// declaration puts an entry (name, optional symbol version, address) into the `frt_reals`
// section, and resolve_real_functions() (called first thing in ensure_init, rt_process.cpp)
// fills every entry of the section with dlsym(RTLD_NEXT) / dlvsym, as the LLVM sanitizer
// runtimes resolve REAL(f) in their InitializeInterceptors. REAL(f) is then one load.
//
// Calls that arrive before initialisation (from the dynamic loader, from libc's own set-up, from
// constructors that run before the runtime's) resolve their entry on the spot. dlsym may
// allocate (the dlerror buffer: calloc, which the runtime interposes, rt_allocator.cpp, without
// a real-function entry), and a real function that dlsym itself reaches through an interceptor
// would recurse: while a thread is inside dlsym, REAL() of an unresolved entry returns null
// instead, and interceptors that can run there have a fallback (rt_libc_memory.cpp).
#pragma once

#include <errno.h>

#include "rt_internal.hpp"

namespace frt {

// 32 bytes, aligned to 32: the compiler aligns a global of 32 bytes or more to 32 on x86-64, so
// entries lie in the section without gaps (resolve_real_functions skips zero gaps anyway).
struct alignas(32) RealFunction {
    void* address;       // null until resolved (or when the symbol does not exist)
    const char* name;    // the symbol
    const char* version; // dlvsym version (null: dlsym), e.g. the pthread_cond_* of GLIBC_2.3.2
};
static_assert(sizeof(RealFunction) == 32);

// Resolves every entry of the section (once; entries already resolved early are kept).
void resolve_real_functions();
// An entry not resolved yet: resolve it now (null while this thread is inside dlsym).
void* resolve_real_function(RealFunction& f);

template <class F> FRT_INLINE F real_function(RealFunction& f) {
    void* p = __atomic_load_n(&f.address, __ATOMIC_ACQUIRE);
    if (FRT_UNLIKELY(p == nullptr)) p = resolve_real_function(f);
    return reinterpret_cast<F>(p);
}

// Calls `real` (a REAL() that may be null: a function this C library lacks, e.g. mq_send before
// glibc 2.34 when the program did not link librt): -1 and ENOSYS when it is missing.
template <class Real, class... Args>
auto call_real_or_enosys(Real real, Args... args) -> decltype(real(args...)) {
    if (real == nullptr) {
        errno = ENOSYS;
        return -1;
    }
    return real(args...);
}

} // namespace frt

// FRT_DECLARE_REAL(f): the real f, of f's own type. _TYPED: with an explicit function pointer
// type (functions C++ overloads, like strchr, or not declared by any header). _VERSIONED: the
// symbol of that version when it exists (else the default one).
#define FRT_DECLARE_REAL_ENTRY(name, type, version)                                                \
    using real_type_##name = type;                                                                 \
    __attribute__((section("frt_reals"), used)) ::frt::RealFunction real_entry_##name = {          \
        nullptr, #name, version}
#define FRT_DECLARE_REAL(name) FRT_DECLARE_REAL_ENTRY(name, decltype(&::name), nullptr)
#define FRT_DECLARE_REAL_TYPED(name, type) FRT_DECLARE_REAL_ENTRY(name, type, nullptr)
#define FRT_DECLARE_REAL_VERSIONED(name, version)                                                  \
    FRT_DECLARE_REAL_ENTRY(name, decltype(&::name), version)
// The real function (null only if it does not exist, or inside dlsym before initialisation).
#define REAL(name) (::frt::real_function<real_type_##name>(real_entry_##name))
