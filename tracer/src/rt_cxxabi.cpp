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

FRT_EXPORT int __cxa_guard_acquire(u64* g) {
    auto real = REAL(__cxa_guard_acquire);
    if (real == nullptr) return 0;
    const int r = real(g);
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
