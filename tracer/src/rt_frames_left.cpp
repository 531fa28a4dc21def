// Frames the program leaves without returning: the shadow stack (rt_access.cpp) is pushed by
// `__tsan_func_entry` and popped by `__tsan_func_exit`, and a frame left any other way stays on
// it, so every later calling context of the thread would name the dead frames and its depth
// grow without bound (a loop of `setjmp`/`longjmp` through five frames gave 62 stale frames
// under a race's access).
//
//   longjmp, _longjmp, siglongjmp, __longjmp_chk
//                  (XSH longjmp: the jump returns to the frame of the `setjmp` that saved env,
//                  every frame below it is gone.) The target's stack pointer is in env, mangled
//                  by glibc (x86-64: PTR_MANGLE, rotated left by 17 after a xor with the
//                  thread's pointer guard at %fs:0x30); the frames entered with a stack
//                  pointer below it are popped before the real jump.
//   __cxa_begin_catch
//                  a caught exception unwound the frames between the throw and the handler;
//                  instrumented C++ frames pop themselves in their cleanups, but frames of code
//                  without them (C compiled without -fexceptions, a callback under qsort) do
//                  not: the frames entered below the handler's stack pointer are popped.
//
// `__tsan_func_entry` records each frame's entry stack pointer (one store; ThreadSanitizer
// instead saves the shadow stack's depth at every setjmp, which needs a setjmp interceptor in
// assembly). A jump's target above the caller is the normal case; one that is not (a
// siglongjmp from a handler on an alternate stack that lies above the thread's stack) pops
// nothing. Frames deeper than the kept shadow stack (kMaxStack) have no recorded pointer: they
// are popped only together with the deepest recorded one.
#include <setjmp.h>

#include "rt_real.hpp"
#include "rt_record.hpp"

using namespace frt;

extern "C" [[noreturn]] void __longjmp_chk(struct __jmp_buf_tag* env, int value);
extern "C" void* __cxa_begin_catch(void* exception) noexcept;

namespace {

FRT_DECLARE_REAL(longjmp);
FRT_DECLARE_REAL(_longjmp);
FRT_DECLARE_REAL(siglongjmp);
FRT_DECLARE_REAL(__longjmp_chk);
FRT_DECLARE_REAL(__cxa_begin_catch);

// Pops the frames of the calling thread's shadow stack entered below sp.
void frames_left_below(u64 sp) {
    ThreadState* t = tls_state;
    if (t == nullptr) return;
    u32 d = t->depth;
    if (d > kMaxStack) {
        if (t->frame_sp[kMaxStack - 1] >= sp) return;
        d = kMaxStack;
    }
    while (d != 0 && t->frame_sp[d - 1] < sp)
        --d;
    t->depth = d;
    t->stack_hash = t->stack_hashes[d];
}

// glibc's x86-64 jmp_buf: rbx, rbp, r12-r15, rsp, pc, each pointer mangled.
constexpr int kJumpBufferSp = 6;

// The frames a jump to env leaves, popped (called from the jumping interceptor: its own frame
// lies below the target).
__attribute__((always_inline)) inline void jumping_to(const struct __jmp_buf_tag* env) {
#if defined(__x86_64__)
    u64 guard;
    __asm__("mov %%fs:0x30, %0" : "=r"(guard));
    const u64 mangled = static_cast<u64>(env->__jmpbuf[kJumpBufferSp]);
    const u64 sp = ((mangled >> 17) | (mangled << 47)) ^ guard;
    if (sp > reinterpret_cast<u64>(__builtin_frame_address(0))) frames_left_below(sp);
#else
    (void)env;
#endif
}

} // namespace

FRT_EXPORT [[noreturn]] void longjmp(jmp_buf env, int value) {
    jumping_to(env);
    REAL(longjmp)(env, value);
    __builtin_unreachable(); // (the real jump's type does not say it)
}
FRT_EXPORT [[noreturn]] void _longjmp(jmp_buf env, int value) {
    jumping_to(env);
    REAL(_longjmp)(env, value);
    __builtin_unreachable(); // (the real jump's type does not say it)
}
FRT_EXPORT [[noreturn]] void siglongjmp(sigjmp_buf env, int value) {
    jumping_to(env);
    REAL(siglongjmp)(env, value);
    __builtin_unreachable(); // (the real jump's type does not say it)
}
FRT_EXPORT [[noreturn]] void __longjmp_chk(struct __jmp_buf_tag* env, int value) {
    jumping_to(env);
    REAL(__longjmp_chk)(env, value);
    __builtin_unreachable(); // (the real jump's type does not say it)
}
FRT_EXPORT void* __cxa_begin_catch(void* exception) noexcept {
    frames_left_below(reinterpret_cast<u64>(__builtin_dwarf_cfa()));
    return REAL(__cxa_begin_catch)(exception);
}

FRT_INTERCEPTOR_ALIAS(longjmp)
FRT_INTERCEPTOR_ALIAS(_longjmp)
FRT_INTERCEPTOR_ALIAS(siglongjmp)
FRT_INTERCEPTOR_ALIAS(__longjmp_chk)
FRT_INTERCEPTOR_ALIAS(__cxa_begin_catch)
