// Frames a caught C++ exception unwinds without popping them from the shadow stack (rt_access.cpp:
// pushed by `__tsan_func_entry`, popped by `__tsan_func_exit`). Instrumented C++ frames pop
// themselves in the cleanups both compilers' ThreadSanitizer passes add; an instrumented C frame
// (built without -fexceptions: no cleanup, no landing pad) under a throwing C++ callback is passed
// over by the unwinder and stays on the shadow stack, so every later calling context of the thread
// names it (and the depth grows with each catch). rt_frames_left.cpp does the same for longjmp.
//
//   __cxa_begin_catch   (libsupc++; every handler, `catch (...)` too, calls it first, in the
//                       frame of the function that catches, the catcher.) The frames still
//                       alive are the catcher and its callers: their return addresses are walked
//                       with libgcc's `_Unwind_Backtrace`, innermost first (at most kLiveFrames
//                       of them). An entry of the shadow stack is the return address into the
//                       caller of an instrumented function: the topmost entry whose return
//                       address is the innermost live caller that has one is the innermost live
//                       instrumented frame (a live frame below it would have a caller nearer the
//                       catcher; the catcher's own calls are over), and every entry above it
//                       belongs to an unwound frame (called from the catcher, at a call it has
//                       left, or from a dead frame). Those are popped. No match (the walk failed,
//                       or no live frame is instrumented): the shadow stack stays as it is.
//
// Nothing is paid on the access or call path: the walk is made once per caught exception (the
// catch's unwinder already walked the dead frames twice), and it stops at the first live caller
// an entry names (usually the catcher's own caller). A dead entry naming that same return
// address above the live one (a recursive catcher re-entered, dead, from the call site a live
// instance is at) stops the pops there: fewer frames popped, never a live one. The runtime's own
// catches (it throws none) and those before the thread is known change nothing.
#include <unwind.h>

#include "rt_real.hpp"
#include "rt_record.hpp"

using namespace frt;

namespace {

using BeginCatchFn = void* (*)(void*);
using BacktraceFn = _Unwind_Reason_Code (*)(_Unwind_Trace_Fn, void*);
using GetIpFn = _Unwind_Ptr (*)(struct _Unwind_Context*);
FRT_DECLARE_REAL_TYPED(__cxa_begin_catch, BeginCatchFn);
FRT_DECLARE_REAL_TYPED(_Unwind_Backtrace, BacktraceFn);
FRT_DECLARE_REAL_TYPED(_Unwind_GetIP, GetIpFn);

constexpr u32 kLiveFrames = 64;

// The walk of the catcher's callers, innermost first (the walk's own frames and the catcher's,
// whose return address is `catcher`, skipped), until one is the return address of a shadow stack
// entry: `live` is then the topmost such entry.
struct LiveCallers {
    GetIpFn get_ip;
    const ThreadState* thread;
    u64 catcher;
    u32 stored; // entries of the shadow stack stored (at most kMaxStack)
    u32 walked; // callers walked
    bool past_catcher;
    bool found;
    u32 live;
};

_Unwind_Reason_Code live_caller(struct _Unwind_Context* context, void* arg) {
    auto* walk = static_cast<LiveCallers*>(arg);
    const u64 pc = static_cast<u64>(walk->get_ip(context));
    if (pc == 0) return _URC_END_OF_STACK;
    if (!walk->past_catcher) {
        walk->past_catcher = pc == walk->catcher;
        return _URC_NO_REASON;
    }
    for (u32 j = walk->stored; j-- != 0;)
        if (walk->thread->stack[j] == pc) {
            walk->found = true;
            walk->live = j;
            return _URC_END_OF_STACK;
        }
    return ++walk->walked == kLiveFrames ? _URC_END_OF_STACK : _URC_NO_REASON;
}

// Pops the shadow stack's entries of frames the exception caught at `catcher` (the return
// address of the __cxa_begin_catch call) unwound.
__attribute__((noinline)) void unwound_to(ThreadState* t, u64 catcher) {
    auto backtrace = REAL(_Unwind_Backtrace);
    auto get_ip = REAL(_Unwind_GetIP);
    if (backtrace == nullptr || get_ip == nullptr || t->depth == 0) return;
    LiveCallers walk;
    walk.get_ip = get_ip;
    walk.thread = t;
    walk.catcher = catcher;
    walk.stored = t->depth < kMaxStack ? t->depth : kMaxStack;
    walk.walked = 0;
    walk.past_catcher = false;
    walk.found = false;
    walk.live = 0;
    backtrace(live_caller, &walk);
    // Entry `live` is live; above it, the dead. With entries beyond kMaxStack unknown, only pop
    // when a stored entry above it is dead.
    if (walk.found && walk.live + 1 < walk.stored) {
        t->depth = walk.live + 1;
        t->stack_hash = t->stack_hashes[walk.live + 1];
    }
}

} // namespace

FRT_EXPORT void* __cxa_begin_catch(void* unwind_header) {
    auto real = REAL(__cxa_begin_catch);
    if (ThreadState* t = tls_state; t != nullptr && !from_runtime(FRT_CALLER()))
        unwound_to(t, FRT_CALLER());
    return real != nullptr ? real(unwind_header) : nullptr;
}
FRT_INTERCEPTOR_ALIAS(__cxa_begin_catch)
