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
//                       with libgcc's `_Unwind_Backtrace` (the catcher's callers, at most
//                       kLiveFrames of them). An entry of the shadow stack is the return address
//                       into the caller of an instrumented function: the topmost entry whose
//                       return address is a live caller's is the innermost live instrumented
//                       frame, and every entry above it belongs to an unwound frame (called from
//                       the catcher, at a call it has left, or from a dead frame). Those are
//                       popped. No match (the walk failed, or no live frame is instrumented):
//                       the shadow stack stays as it is.
//
// Nothing is paid on the access or call path: the walk is made once per caught exception (the
// catch's unwinder already walked the dead frames twice). A recursive function that catches and
// had been re-entered, dead, from the very call site a live instance is at leaves the dead entries
// above that site's topmost occurrence (fewer frames popped, never a live one). The runtime's own
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

// The return addresses of the catcher's callers, innermost first (the walk's own frames and the
// catcher's, whose return address is `catcher`, skipped).
struct LiveCallers {
    GetIpFn get_ip;
    u64 catcher;
    bool past_catcher;
    u32 count;
    u64 pc[kLiveFrames];
};

_Unwind_Reason_Code live_caller(struct _Unwind_Context* context, void* arg) {
    auto* live = static_cast<LiveCallers*>(arg);
    const u64 pc = static_cast<u64>(live->get_ip(context));
    if (pc == 0) return _URC_END_OF_STACK;
    if (!live->past_catcher) {
        live->past_catcher = pc == live->catcher;
        return _URC_NO_REASON;
    }
    live->pc[live->count++] = pc;
    return live->count == kLiveFrames ? _URC_END_OF_STACK : _URC_NO_REASON;
}

bool is_live_caller(const LiveCallers& live, u64 pc) {
    for (u32 i = 0; i < live.count; ++i)
        if (live.pc[i] == pc) return true;
    return false;
}

// Pops the shadow stack's entries of frames the exception caught at `catcher` (the return
// address of the __cxa_begin_catch call) unwound.
__attribute__((noinline)) void unwound_to(ThreadState* t, u64 catcher) {
    auto backtrace = REAL(_Unwind_Backtrace);
    auto get_ip = REAL(_Unwind_GetIP);
    if (backtrace == nullptr || get_ip == nullptr || t->depth == 0) return;
    LiveCallers live;
    live.get_ip = get_ip;
    live.catcher = catcher;
    live.past_catcher = false;
    live.count = 0;
    backtrace(live_caller, &live);
    const u32 stored = t->depth < kMaxStack ? t->depth : kMaxStack;
    for (u32 j = stored; j-- != 0;) {
        if (!is_live_caller(live, t->stack[j])) continue;
        // Entry j is live; above it, the dead. With entries beyond kMaxStack unknown, only
        // pop when a stored entry above j is dead.
        if (j + 1 < stored) {
            t->depth = j + 1;
            t->stack_hash = t->stack_hashes[j + 1];
        }
        return;
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
