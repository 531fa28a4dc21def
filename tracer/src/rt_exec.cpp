// The program replaces its image (the exec family) or detaches from its parent (daemon).
//
// exec (execve, execveat, execv, execvp, execvpe, fexecve, execl, execlp, execle; the raw
// system calls: rt_syscall.cpp): the kernel ends every other thread and nothing of the old image
// runs afterwards (no atexit, no destructors): the trace is finished first, as at exit, so that
// what every thread did before the exec is in the trace (it was all lost: no end line,
// unflushed buffers), and taken up again when the exec returns (rt_exec_finish.cpp). An exec
// that the kernel will refuse at its first checks (no such file, not executable:
// rt_exec_outcome.cpp) is not even finished for. An instrumented new image traces into a trace
// of its own, exec-<pid> inside this one (rt_metadata.cpp); an uninstrumented one is not
// traced. ThreadSanitizer reports as it goes and has nothing to finish.
//
// daemon: glibc's forks (the child is followed, as any fork's) and ends the parent with its
// internal _exit, which the interposed one never sees: the parent's trace was left without an
// end line. The interposed daemon does what glibc's does (fork, parent _exit(0), child setsid,
// chdir("/") unless nochdir, 0/1/2 onto /dev/null unless noclose) through the interposed fork
// and _exit.
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "rt_exec_finish.hpp"
#include "rt_exec_outcome.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_system.hpp"

using namespace frt;

namespace {
FRT_DECLARE_REAL(execve);
FRT_DECLARE_REAL(execveat);
FRT_DECLARE_REAL(execv);
FRT_DECLARE_REAL(execvp);
FRT_DECLARE_REAL(execvpe);
FRT_DECLARE_REAL(fexecve);

constexpr int kMaxListArguments = 4096;
// The arguments of execl/execlp/execle from `first` up to the null pointer, into argv (null
// terminated); false (E2BIG, as the kernel would refuse them too) beyond kMaxListArguments - 1.
bool gather_arguments(const char* first, va_list ap, char** argv) {
    int n = 0;
    for (const char* a = first; a != nullptr; a = va_arg(ap, const char*)) {
        if (n + 1 >= kMaxListArguments) {
            errno = E2BIG;
            return false;
        }
        argv[n++] = const_cast<char*>(a);
    }
    argv[n] = nullptr;
    return true;
}
} // namespace

FRT_EXPORT int execve(const char* path, char* const argv[], char* const envp[]) {
    return static_cast<int>(exec_with_trace_finished(
        exec_of_path_fails(path), [&] { return REAL(execve)(path, argv, envp); }));
}
FRT_EXPORT int execveat(int dir, const char* path, char* const argv[], char* const envp[],
                        int flags) {
    return static_cast<int>(exec_with_trace_finished(exec_at_fails(dir, path, flags), [&] {
        return REAL(execveat)(dir, path, argv, envp, flags);
    }));
}
FRT_EXPORT int execv(const char* path, char* const argv[]) {
    return static_cast<int>(exec_with_trace_finished(exec_of_path_fails(path),
                                                     [&] { return REAL(execv)(path, argv); }));
}
FRT_EXPORT int execvp(const char* file, char* const argv[]) {
    return static_cast<int>(exec_with_trace_finished(exec_search_fails(file),
                                                     [&] { return REAL(execvp)(file, argv); }));
}
FRT_EXPORT int execvpe(const char* file, char* const argv[], char* const envp[]) {
    return static_cast<int>(exec_with_trace_finished(
        exec_search_fails(file), [&] { return REAL(execvpe)(file, argv, envp); }));
}
FRT_EXPORT int fexecve(int fd, char* const argv[], char* const envp[]) {
    return static_cast<int>(exec_with_trace_finished(
        exec_of_descriptor_fails(fd), [&] { return REAL(fexecve)(fd, argv, envp); }));
}
FRT_EXPORT int execl(const char* path, const char* arg, ...) {
    char* argv[kMaxListArguments];
    va_list ap;
    va_start(ap, arg);
    const bool gathered = gather_arguments(arg, ap, argv);
    va_end(ap);
    return gathered ? execv(path, argv) : -1;
}
FRT_EXPORT int execlp(const char* file, const char* arg, ...) {
    char* argv[kMaxListArguments];
    va_list ap;
    va_start(ap, arg);
    const bool gathered = gather_arguments(arg, ap, argv);
    va_end(ap);
    return gathered ? execvp(file, argv) : -1;
}
FRT_EXPORT int execle(const char* path, const char* arg, ...) {
    char* argv[kMaxListArguments];
    va_list ap;
    va_start(ap, arg);
    const bool gathered = gather_arguments(arg, ap, argv);
    char* const* envp = gathered ? va_arg(ap, char* const*) : nullptr;
    va_end(ap);
    return gathered ? execve(path, argv, envp) : -1;
}

FRT_EXPORT int daemon(int nochdir, int noclose) {
    const pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid > 0) _exit(0);
    if (setsid() < 0) return -1;
    if (nochdir == 0) system_call(SYS_chdir, "/");
    if (noclose != 0) return 0;
    const int fd = static_cast<int>(system_call(SYS_openat, AT_FDCWD, "/dev/null", O_RDWR));
    if (fd < 0) return -1;
    struct stat st;
    if (system_call(SYS_fstat, fd, &st) != 0 || !S_ISCHR(st.st_mode) ||
        st.st_rdev != makedev(1, 3)) {
        system_call(SYS_close, fd);
        errno = ENODEV;
        return -1;
    }
    // The interposed dup2/close: a runtime descriptor that holds 0/1/2 (the program had closed
    // them and the band was full) moves first, and the descriptor model retires 0/1/2.
    for (int std_fd = 0; std_fd < 3; ++std_fd)
        dup2(fd, std_fd);
    if (fd > 2) close(fd);
    return 0;
}

FRT_INTERCEPTOR_ALIAS(execve)
FRT_INTERCEPTOR_ALIAS(execveat)
FRT_INTERCEPTOR_ALIAS(execv)
FRT_INTERCEPTOR_ALIAS(execvp)
FRT_INTERCEPTOR_ALIAS(execvpe)
FRT_INTERCEPTOR_ALIAS(fexecve)
FRT_INTERCEPTOR_ALIAS(execl)
FRT_INTERCEPTOR_ALIAS(execlp)
FRT_INTERCEPTOR_ALIAS(execle)
FRT_INTERCEPTOR_ALIAS(daemon)
