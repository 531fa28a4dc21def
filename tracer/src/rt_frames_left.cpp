// Frames the program leaves without returning: the shadow stack (rt_access.cpp) is pushed by
// `__tsan_func_entry` and popped by `__tsan_func_exit`, and a frame left any other way stays on
// it, so every later calling context of the thread would name the dead frames and its depth
// grow without bound (a loop of `setjmp`/`longjmp` through five frames gave 62 stale frames
// under a race's access).
//
//   setjmp, _setjmp, __sigsetjmp
//                  (sigsetjmp is glibc's macro for __sigsetjmp) record the shadow stack's depth
//                  with the caller's stack pointer, which the real call saves in env, then go on
//                  to the real call: an interceptor in assembly, since the real call must run in
//                  the caller's frame (it returns twice). As ThreadSanitizer's setjmp interceptor.
//   longjmp, _longjmp, siglongjmp, __longjmp_chk
//                  (XSH longjmp: the jump returns to the frame of the `setjmp` that saved env,
//                  every frame below it is gone.) The target's stack pointer is in env, mangled
//                  by glibc (x86-64: PTR_MANGLE, rotated left by 17 after a xor with the
//                  thread's pointer guard at %fs:0x30); the depth recorded with that stack
//                  pointer is restored before the real jump.
//
// `__tsan_func_entry` pays nothing for it (recording each frame's stack pointer there cost
// 13% on 2 threads x fib(36), the shape of bench/tracing/calls_only.c). The records of a thread
// form a stack ordered by stack pointer: a new one drops those of frames below it (they returned),
// a jump those below its target. A jump whose setjmp was not recorded (made before the thread was
// known, or more than kSavedJumps nested setjmps) leaves the shadow stack as it is. Not handled:
// frames a caught C++ exception unwinds without cleanups (C code under a throwing callback;
// instrumented C++ frames pop themselves in their cleanups).
#include <setjmp.h>

#include "rt_real.hpp"
#include "rt_record.hpp"

using namespace frt;

extern "C" [[noreturn]] void __longjmp_chk(struct __jmp_buf_tag* env, int value);

namespace {

using setjmp_fn = int (*)(struct __jmp_buf_tag*);
using sigsetjmp_fn = int (*)(struct __jmp_buf_tag*, int);
FRT_DECLARE_REAL_TYPED(setjmp, setjmp_fn);
FRT_DECLARE_REAL_TYPED(_setjmp, setjmp_fn);
FRT_DECLARE_REAL_TYPED(__sigsetjmp, sigsetjmp_fn);
FRT_DECLARE_REAL(longjmp);
FRT_DECLARE_REAL(_longjmp);
FRT_DECLARE_REAL(siglongjmp);
FRT_DECLARE_REAL(__longjmp_chk);

// A setjmp of the thread: the caller's stack pointer and the shadow stack's depth then.
struct SavedJump {
    u64 sp;
    u32 depth;
};
constexpr u32 kSavedJumps = 32;
__thread SavedJump tls_jumps[kSavedJumps] __attribute__((tls_model("initial-exec")));
__thread u32 tls_jump_count __attribute__((tls_model("initial-exec")));

// Drops the records of frames below sp (their frames returned or were jumped over).
u32 jumps_above(u64 sp) {
    u32 n = tls_jump_count;
    while (n != 0 && tls_jumps[n - 1].sp < sp)
        --n;
    return n;
}

// glibc's x86-64 jmp_buf: rbx, rbp, r12-r15, rsp, pc, each pointer mangled.
constexpr int kJumpBufferSp = 6;

// The shadow stack as it was at the setjmp a jump to env returns to.
__attribute__((always_inline)) inline void jumping_to(const struct __jmp_buf_tag* env) {
#if defined(__x86_64__)
    ThreadState* t = tls_state;
    if (t == nullptr) return;
    u64 guard;
    __asm__("mov %%fs:0x30, %0" : "=r"(guard));
    const u64 mangled = static_cast<u64>(env->__jmpbuf[kJumpBufferSp]);
    const u64 sp = ((mangled >> 17) | (mangled << 47)) ^ guard;
    const u32 n = jumps_above(sp);
    tls_jump_count = n;
    if (n != 0 && tls_jumps[n - 1].sp == sp && tls_jumps[n - 1].depth < t->depth) {
        const u32 d = tls_jumps[n - 1].depth;
        t->depth = d;
        t->stack_hash = t->stack_hashes[d < kMaxStack ? d : kMaxStack];
    }
#else
    (void)env;
#endif
}

} // namespace

// Called by the setjmp interceptors below with the caller's stack pointer after the return
// (what the real call saves) and which of them it is; returns the real function to go on to.
extern "C" __attribute__((visibility("hidden"), used)) void* frt_jump_saved(u64 sp, int which) {
    if (ThreadState* t = tls_state; t != nullptr) {
        u32 n = jumps_above(sp);
        if (n != 0 && tls_jumps[n - 1].sp == sp) --n; // the same frame saves again
        if (n < kSavedJumps) {
            tls_jumps[n] = {sp, t->depth};
            tls_jump_count = n + 1;
        } else {
            tls_jump_count = n;
        }
    }
    if (which == 0) return reinterpret_cast<void*>(REAL(setjmp));
    if (which == 1) return reinterpret_cast<void*>(REAL(_setjmp));
    return reinterpret_cast<void*>(REAL(__sigsetjmp));
}

#if defined(__x86_64__)
// setjmp(env), _setjmp(env), __sigsetjmp(env, savemask): keep the arguments, note the jump
// (the caller's stack pointer after the return is the entry's plus 8), then jump to the real
// function with the caller's return address on the stack, as if called directly.
#define FRT_SETJMP_INTERCEPTOR(name, which)                                                        \
    __asm__(".text\n.p2align 4\n.globl " #name "\n.type " #name ",@function\n" #name ":\n"         \
            ".cfi_startproc\n"                                                                     \
            "push %rdi\n.cfi_adjust_cfa_offset 8\n"                                                \
            "push %rsi\n.cfi_adjust_cfa_offset 8\n"                                                \
            "sub $8, %rsp\n.cfi_adjust_cfa_offset 8\n"                                             \
            "lea 32(%rsp), %rdi\n"                                                                 \
            "mov $" #which ", %esi\n"                                                              \
            "call frt_jump_saved\n"                                                                \
            "add $8, %rsp\n.cfi_adjust_cfa_offset -8\n"                                            \
            "pop %rsi\n.cfi_adjust_cfa_offset -8\n"                                                \
            "pop %rdi\n.cfi_adjust_cfa_offset -8\n"                                                \
            "jmp *%rax\n"                                                                          \
            ".cfi_endproc\n.size " #name ", .-" #name "\n");                                       \
    FRT_INTERCEPTOR_ALIAS(name)
FRT_SETJMP_INTERCEPTOR(setjmp, 0)
FRT_SETJMP_INTERCEPTOR(_setjmp, 1)
FRT_SETJMP_INTERCEPTOR(__sigsetjmp, 2)
#endif

FRT_EXPORT __attribute__((noreturn)) void longjmp(jmp_buf env, int value) {
    jumping_to(env);
    REAL(longjmp)(env, value);
    __builtin_unreachable(); // (the real jump's type does not say it)
}
FRT_EXPORT __attribute__((noreturn)) void _longjmp(jmp_buf env, int value) {
    jumping_to(env);
    REAL(_longjmp)(env, value);
    __builtin_unreachable();
}
FRT_EXPORT __attribute__((noreturn)) void siglongjmp(sigjmp_buf env, int value) {
    jumping_to(env);
    REAL(siglongjmp)(env, value);
    __builtin_unreachable();
}
FRT_EXPORT __attribute__((noreturn)) void __longjmp_chk(struct __jmp_buf_tag* env, int value) {
    jumping_to(env);
    REAL(__longjmp_chk)(env, value);
    __builtin_unreachable();
}

FRT_INTERCEPTOR_ALIAS(longjmp)
FRT_INTERCEPTOR_ALIAS(_longjmp)
FRT_INTERCEPTOR_ALIAS(siglongjmp)
FRT_INTERCEPTOR_ALIAS(__longjmp_chk)
