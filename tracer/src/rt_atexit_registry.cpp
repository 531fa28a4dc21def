// Functions registered to run at exit: atexit (glibc's libc_nonshared stub calls __cxa_atexit),
// __cxa_atexit (also C++ static destructors), on_exit and at_quick_exit (__cxa_at_quick_exit).
// The C library keeps them in a list under its own lock, and exit (or quick_exit, or a
// dlclose's __cxa_finalize) calls each one in the exiting thread: registering a function is
// ordered before it runs, so what the registering thread prepared for it is the handler's
// (as in ThreadSanitizer, which wraps each function).
//
// Each registration is a merging Release of one object (firstrace_exit_functions, an
// Annotation), taken before the real registration; right after registering the program's
// function the interceptor registers an acquire of that object the same way, which the C
// library, calling the functions in reverse order, runs just before the program's one. No
// per-function context is needed (the list can be long: every static object of a C++ program).
// The runtime's own registration (its trace finalization, rt_exit.cpp) is not the program's.
#include <stdlib.h>

#include "rt_real.hpp"
#include "rt_record.hpp"

using namespace frt;
namespace fmt = firstrace::format;

extern "C" {
__attribute__((visibility("default"))) unsigned char firstrace_exit_functions;
int __cxa_atexit(void (*func)(void*), void* arg, void* dso);
int __cxa_at_quick_exit(void (*func)(void*), void* dso);
}

namespace {
FRT_DECLARE_REAL(__cxa_atexit);
FRT_DECLARE_REAL(__cxa_at_quick_exit);
FRT_DECLARE_REAL(on_exit);

// The registering thread's Release (nothing for the runtime's own registration); true when the
// acquire is to be registered too.
bool registering(u64 pc) {
    InterceptorScope scope(enter_call(pc));
    if (!scope) return false;
    release_now(scope.thread(), fmt::kObjAnnotation, &firstrace_exit_functions, pc, true);
    return true;
}

void acquire_registrations() {
    const u64 pc = FRT_CALLER();
    if (InterceptorScope scope(enter()); scope)
        acquire_now(scope.thread(), fmt::kObjAnnotation, &firstrace_exit_functions, pc);
}
void acquire_registrations_for_cxa(void*) {
    acquire_registrations();
}
void acquire_registrations_for_on_exit(int, void*) {
    acquire_registrations();
}
} // namespace

FRT_EXPORT int __cxa_atexit(void (*func)(void*), void* arg, void* dso) {
    const bool program = registering(FRT_CALLER());
    const int r = REAL(__cxa_atexit)(func, arg, dso);
    if (r == 0 && program) REAL(__cxa_atexit)(acquire_registrations_for_cxa, nullptr, dso);
    return r;
}
FRT_EXPORT int __cxa_at_quick_exit(void (*func)(void*), void* dso) {
    const bool program = registering(FRT_CALLER());
    const int r = REAL(__cxa_at_quick_exit)(func, dso);
    if (r == 0 && program) REAL(__cxa_at_quick_exit)(acquire_registrations_for_cxa, dso);
    return r;
}
FRT_EXPORT int on_exit(void (*func)(int, void*), void* arg) {
    const bool program = registering(FRT_CALLER());
    const int r = REAL(on_exit)(func, arg);
    if (r == 0 && program) REAL(on_exit)(acquire_registrations_for_on_exit, nullptr);
    return r;
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(__cxa_atexit)
FRT_INTERCEPTOR_ALIAS(__cxa_at_quick_exit)
FRT_INTERCEPTOR_ALIAS(on_exit)
