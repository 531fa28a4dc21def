// glibc's clone(), interposed: a copy of the process made without CLONE_VM is not followed
// (tracer/README.md "Processes"), and it must not wait for the traced process's threads either.
//
// The copy has the parent's memory as it was at the clone, including the spin locks of the
// runtime's tables that the parent's other threads held at that instant (an atomic on an object,
// an append to a stream), but not those threads: nothing would release them, and the copy's
// first atomic on such an object would spin forever (compiler-rt's Linux/clone_deadlock: a
// thread incrementing a counter while main clones children that increment it too). fork()
// frees them in its atfork child handler; a raw clone runs no atfork handlers. So the child
// function is started through a trampoline that first frees the object table's spin locks and
// stops tracing in the copy (its events would go nowhere: the trace is the parent's), then
// runs the program's function. Clones that share the memory (CLONE_VM: threads, vfork-like
// helpers) pass through unchanged.
#include <sched.h>
#include <stdarg.h>
#include <sys/types.h>

#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_thread_registry.hpp"

using namespace frt;

namespace {
using clone_fn = int (*)(int (*)(void*), void*, int, void*, ...);
FRT_DECLARE_REAL_TYPED(clone, clone_fn);

struct CloneStart {
    int (*fn)(void*);
    void* arg;
};

// Runs first in the copy, on its own stack: the CloneStart is in the copy's memory (copied
// from the parent's frame below, which stays alive until clone returns there).
int start_copy(void* p) {
    const CloneStart start = *static_cast<CloneStart*>(p);
    sync_objects_after_fork();
    g_state.store(RtState::Disabled, std::memory_order_release);
    untraced_from_now();
    return start.fn(start.arg);
}
} // namespace

FRT_EXPORT int clone(int (*fn)(void*), void* stack, int flags, void* arg, ...) {
    // The optional arguments, read as ThreadSanitizer's interceptor does (the kernel looks at
    // them only when flags ask for them).
    va_list ap;
    va_start(ap, arg);
    pid_t* parent_tid = va_arg(ap, pid_t*);
    void* tls = va_arg(ap, void*);
    pid_t* child_tid = va_arg(ap, pid_t*);
    va_end(ap);
    auto real = REAL(clone);
    if (real == nullptr) return -1;
    if ((flags & CLONE_VM) != 0 || fn == nullptr) {
        // a thread the runtime sees only when it runs traced code (rt_helper_threads.cpp)
        if ((flags & CLONE_VM) != 0) unordered_helper_thread();
        return real(fn, stack, flags, arg, parent_tid, tls, child_tid);
    }
    CloneStart start{fn, arg};
    return real(start_copy, stack, flags, &start, parent_tid, tls, child_tid);
}
FRT_INTERCEPTOR_ALIAS(clone)
