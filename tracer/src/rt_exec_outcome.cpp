// The outcome of an exec, foreseen. The runtime must finish the trace before an exec that
// replaces the image (nothing of the old image runs afterwards), but an exec that fails returns
// to the program, which goes on (a shell's PATH search, a fallback program, a message and
// _exit): its events must still be traced. The kernel's execve first resolves the name and
// refuses what is not a regular file the caller may execute (ENOENT, ENOTDIR, ELOOP,
// ENAMETOOLONG, EACCES, also on a noexec mount); faccessat2(X_OK, AT_EACCESS) makes the same
// checks with the same (effective) credentials, without executing anything. Later failures
// (ENOEXEC for an unknown format, E2BIG, ENOMEM, ETXTBSY, a bad ELF file) are not foreseen:
// the trace is finished for them and taken up again when they return (rt_exec_finish.cpp),
// which costs more than not finishing. glibc's execvp searches PATH the same
// way (posix/execvpe.c), running /bin/sh on a file the kernel refused with ENOEXEC.
#include "rt_exec_outcome.hpp"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>

#include "rt_system.hpp"

namespace frt {

namespace {

#ifndef SYS_faccessat2
#define SYS_faccessat2 439
#endif

// The kernel's exec checks on the file `path` names relative to `dir` (flags: AT_EMPTY_PATH
// for the descriptor itself).
bool executable_regular_file(int dir, const char* path, int flags) {
    struct stat st;
    if (system_call(SYS_newfstatat, dir, path, &st, flags) != 0 || !S_ISREG(st.st_mode))
        return false;
    long r = system_call(SYS_faccessat2, dir, path, X_OK, flags | AT_EACCESS);
    if (r != 0 && errno == ENOSYS) // before Linux 5.8: real ids, as glibc's fallback does
        r = system_call(SYS_faccessat, dir, path, X_OK);
    return r == 0;
}

} // namespace

bool exec_of_path_fails(const char* path) {
    return path == nullptr || !executable_regular_file(AT_FDCWD, path, 0);
}

bool exec_of_descriptor_fails(int fd) {
    return !executable_regular_file(fd, "", AT_EMPTY_PATH);
}

bool exec_at_fails(int dir, const char* path, int flags) {
    if (path == nullptr || (path[0] == 0 && (flags & AT_EMPTY_PATH) == 0)) return true;
    return !executable_regular_file(dir, path, flags & (AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW));
}

bool exec_search_fails(const char* file) {
    if (file == nullptr || file[0] == 0) return true;
    if (std::strchr(file, '/') != nullptr) return exec_of_path_fails(file);
    const char* path = getenv("PATH");
    if (path == nullptr) path = "/bin:/usr/bin"; // glibc's confstr(_CS_PATH)
    for (const char* dir = path;; ++dir) {
        const char* end = std::strchr(dir, ':');
        const std::size_t length = end ? static_cast<std::size_t>(end - dir) : std::strlen(dir);
        Line candidate; // an empty element is the current directory
        if (length + std::strlen(file) + 2 > sizeof candidate.buf) return false; // not foreseen
        std::memcpy(candidate.buf, dir, length);
        candidate.n = length;
        if (length > 0) candidate.s("/");
        candidate.s(file);
        if (executable_regular_file(AT_FDCWD, candidate.c_str(), 0)) return false;
        if (end == nullptr) return true;
        dir = end;
    }
}

} // namespace frt
