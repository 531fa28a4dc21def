// The C++ runtime's synchronization: function-local statics (Itanium C++ ABI 3.3.2,
// __cxa_guard_acquire / __cxa_guard_release / __cxa_guard_abort).
//
// The compiler's inline fast path tests the guard's first byte with an acquire load, which
// -fsanitize=thread turns into __tsan_atomic8_load: an Acquire on the kObjAtomic object at the
// guard address (rt_access.cpp). __cxa_guard_release is the matching release store, recorded
// under the object's spin lock together with the real release, exactly as an atomic store
// would be (rt_atomic_model.hpp), so the atomic model pairs them. A thread that
// finds the object initialized inside __cxa_guard_acquire (it waited for another thread's
// initialization, or lost the race to start it) returns 0 there: that is an acquire load of
// the guard, recorded the same way.
#include "rt_atomic_model.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"

// ThreadSanitizer's program hooks around a wait in __cxa_guard_acquire for another thread's
// initialisation (tsan_interceptors_posix.cpp; since LLVM 20 called only when the guard is
// contended, compiler-rt's cxa_guard_acquire.cpp). Declared weak, as the hooks of
// rt_tsan_settings.cpp: the linker exports the program's definitions to the runtime.
namespace __tsan {
__attribute__((weak)) void OnPotentiallyBlockingRegionBegin();
__attribute__((weak)) void OnPotentiallyBlockingRegionEnd();
} // namespace __tsan

using namespace frt;
namespace fmt = firstrace::format;

namespace {
using GuardFn = int (*)(u64*);
using GuardVoidFn = void (*)(u64*);
FRT_DECLARE_REAL_TYPED(__cxa_guard_acquire, GuardFn);
FRT_DECLARE_REAL_TYPED(__cxa_guard_release, GuardVoidFn);
FRT_DECLARE_REAL_TYPED(__cxa_guard_abort, GuardVoidFn);

// One atomic operation on the guard: a release store, or an acquire load.
template <class Op> void guard_op(u64* g, bool release, u64 pc, Op&& op) {
    library_atomic_op(g, {!release, release, release}, pc, op);
}
} // namespace

namespace {
// Another thread is running the initialisation: the guard's first byte (done) is still clear
// and the rest of its word is not (libstdc++'s pending and waiting bits, libc++abi's pending
// byte). The state can change before the real function looks; the hooks only bracket a region
// that may block, as TSan's do.
bool guard_pending(const u64* g) {
    const u32 word = __atomic_load_n(reinterpret_cast<const u32*>(g), __ATOMIC_RELAXED);
    return (word & 0xffu) == 0 && word != 0;
}
} // namespace

FRT_EXPORT int __cxa_guard_acquire(u64* g) {
    auto real = REAL(__cxa_guard_acquire);
    if (real == nullptr) return 0;
    const bool hooks = &__tsan::OnPotentiallyBlockingRegionBegin != nullptr &&
                       &__tsan::OnPotentiallyBlockingRegionEnd != nullptr && guard_pending(g);
    if (hooks) __tsan::OnPotentiallyBlockingRegionBegin();
    const int r = real(g);
    if (hooks) __tsan::OnPotentiallyBlockingRegionEnd();
    if (r == 0) guard_op(g, false, FRT_CALLER(), [] {});
    return r;
}

FRT_EXPORT void __cxa_guard_release(u64* g) {
    auto real = REAL(__cxa_guard_release);
    if (real == nullptr) return;
    guard_op(g, true, FRT_CALLER(), [&] { real(g); });
}

FRT_EXPORT void __cxa_guard_abort(u64* g) {
    auto real = REAL(__cxa_guard_abort);
    if (real != nullptr) real(g);
}
