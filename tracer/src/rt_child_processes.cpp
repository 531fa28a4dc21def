// Child processes and the threads that wait for them (XSH fork, posix_spawn, wait, waitid; XSH
// 2.4.3 SIGCHLD). A child exists only once fork (or posix_spawn) is called, and a wait returns
// its termination only after it ended: what the creating thread did before the call happens
// before what a thread does after the wait that reaped (or, with WNOWAIT, saw) the child, and
// after accepting the SIGCHLD its end sends (sigwaitinfo, sigtimedwait, sigwait, a signalfd
// read). A thread forking a child and another waiting for any child is the usual shape.
//   fork, vfork (as fork, below), posix_spawn (it writes the pid), posix_spawnp
//                    before the call, the creating thread releases the process's children
//                    object (rt_writer_sets.hpp: every creating thread its own) and sends
//                    SIGCHLD (rt_signals.cpp), both whether the call succeeds or not. When
//                    the call returns the child's pid, the creating thread releases the
//                    child's own object too (keyed by the pid).
//   wait, waitpid, wait4, waitid
//                    returning a child that exited or was killed (not a stop or a
//                    continuation): an acquire of the child's own object; when its creator has
//                    not released it yet (a waiter may see the child end before the creator's
//                    fork returns), of every creation so far: the waiter is then also ordered
//                    after other threads' creations of other children, an ordering more, never
//                    a false race. A reused pid's object orders after both creators.
// system() and pclose() wait in the calling thread, which created the child: nothing to add.
// A pidfd's readiness (poll on pidfd_open's descriptor) is not modelled. ThreadSanitizer
// models none of this (a fork/wait hand-off between threads is a false race there).
#include "rt_child_processes.hpp"

#include <spawn.h>
#include <sys/wait.h>

#include "rt_library_call.hpp"
#include "rt_real.hpp"
#include "rt_signals.hpp"
#include "rt_writer_sets.hpp"

using namespace frt;
namespace fmt = firstrace::format;

namespace {
FRT_DECLARE_REAL(fork);
FRT_DECLARE_REAL(posix_spawn);
FRT_DECLARE_REAL(posix_spawnp);

constinit WriterSets<fmt::kObjIpc> g_children;
// Kinds 4 (every creation) and 5 (a child, by pid) in bits 54-57 of the ipc keys
// (rt_sysv_ipc.cpp has kinds 1-3).
constexpr u64 kChildrenKey = u64{4} << 54;
u64 child_key(pid_t pid) {
    return u64{5} << 54 | static_cast<u32>(pid);
}

void child_creating(u64 pc) {
    if (InterceptorScope scope(program_call(pc)); scope) {
        g_children.release(scope.thread(), kChildrenKey, pc);
        signal_sent(scope.thread(), SIGCHLD, pc);
    }
}
// The creation at pc returned the child `pid` (in the parent).
pid_t child_created(u64 pc, pid_t pid) {
    if (pid > 0)
        if (InterceptorScope scope(program_call(pc)); scope)
            g_children.release(scope.thread(), child_key(pid), pc);
    return pid;
}
// posix_spawn writes the child's pid.
int spawned(u64 pc, int r, pid_t* pid) {
    if (r == 0 && pid != nullptr) {
        if (InterceptorScope scope(program_call(pc)); scope)
            library_access(scope.thread(), pc, pid, sizeof *pid, true);
        child_created(pc, *pid);
    }
    return r;
}
void child_ended(u64 pc, pid_t pid) {
    if (InterceptorScope scope(program_call(pc)); scope)
        if (!g_children.acquire(scope.thread(), child_key(pid), pc))
            g_children.acquire(scope.thread(), kChildrenKey, pc);
}
} // namespace

void frt::child_waited(u64 pc, pid_t pid, const int* status) {
    if (pid > 0 && (status == nullptr || WIFEXITED(*status) || WIFSIGNALED(*status)))
        child_ended(pc, pid);
}
void frt::child_waited(u64 pc, const siginfo_t* info) {
    if (info != nullptr && info->si_pid != 0 &&
        (info->si_code == CLD_EXITED || info->si_code == CLD_KILLED || info->si_code == CLD_DUMPED))
        child_ended(pc, info->si_pid);
}

FRT_EXPORT pid_t fork() {
    child_creating(FRT_CALLER());
    return child_created(FRT_CALLER(), REAL(fork)());
}
// vfork: the child shares the parent's memory until it calls exec or _exit, so the runtime's
// _exit in the child would end the parent's trace. As in ThreadSanitizer, vfork is fork (a
// conforming child only calls exec or _exit, which behave the same); the child of fork does
// not write into the parent's trace (rt_process.cpp).
FRT_EXPORT pid_t vfork() {
    child_creating(FRT_CALLER());
    return child_created(FRT_CALLER(), REAL(fork)());
}
FRT_EXPORT int posix_spawn(pid_t* pid, const char* path, const posix_spawn_file_actions_t* actions,
                           const posix_spawnattr_t* attributes, char* const argv[],
                           char* const envp[]) {
    const u64 pc = FRT_CALLER();
    child_creating(pc);
    return spawned(pc, REAL(posix_spawn)(pid, path, actions, attributes, argv, envp), pid);
}
FRT_EXPORT int posix_spawnp(pid_t* pid, const char* file, const posix_spawn_file_actions_t* actions,
                            const posix_spawnattr_t* attributes, char* const argv[],
                            char* const envp[]) {
    const u64 pc = FRT_CALLER();
    child_creating(pc);
    return spawned(pc, REAL(posix_spawnp)(pid, file, actions, attributes, argv, envp), pid);
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(fork)
FRT_INTERCEPTOR_ALIAS(vfork)
FRT_INTERCEPTOR_ALIAS(posix_spawn)
FRT_INTERCEPTOR_ALIAS(posix_spawnp)
