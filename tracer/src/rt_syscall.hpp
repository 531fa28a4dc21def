// The program's syscall() (rt_syscall.cpp) and the models of the system calls it makes that the
// runtime sees: futexes (rt_futex.cpp) and the signal masks that could block the exit flush
// signal (rt_exit_flush_reach.cpp). Arguments: the six registers glibc's syscall() passes.
#pragma once

#include <signal.h>

#include "rt_internal.hpp"

namespace frt {

using SyscallFn = long (*)(long, ...);

// A futex call the runtime models (SYS_futex wake/wait/requeue/PI operations, futex_waitv,
// futex_wake, futex_wait, futex_requeue).
bool futex_call_modelled(long number, const long (&a)[6]);
// Makes the modelled futex call through `real` with its Releases before and Acquires after.
long futex_call(long number, const long (&a)[6], SyscallFn real, u64 pc);
// The same model around a futex call the program makes itself and announces with the
// <sanitizer/linux_syscall_hooks.h> hooks (`result`: the call's return, -errno or -1 with errno).
void futex_hook_before(long number, const long (&a)[6], u64 pc);
void futex_hook_after(long number, const long (&a)[6], long result, u64 pc);

// Copies n bytes at the program's address `from` that a system call is about to read, without
// faulting where the kernel would return EFAULT (process_vm_readv of the process itself): false
// when they cannot be read.
bool copy_call_argument(void* to, u64 from, u64 n);

// A system call's signal set, copied so that it lacks the exit flush signal.
struct RawSignalSet {
    sigset_t set;
    struct {
        const sigset_t* set;
        unsigned long size;
    } pselect_mask; // pselect6's sixth argument points to such a pair
};
// When system call `number` made by the program at pc would block the exit flush signal (a
// mask it sets, rt_sigprocmask, rt_sigsuspend, pselect6, ppoll, epoll_pwait(2)) or accept it
// (rt_sigtimedwait), points its argument at `copy`, a copy without it.
void keep_exit_flush_reachable(long number, long (&a)[6], RawSignalSet& copy, u64 pc);

} // namespace frt
