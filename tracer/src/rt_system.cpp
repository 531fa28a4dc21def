// Freestanding helpers (rt_system.hpp).
#include "rt_system.hpp"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace frt {

long system_call6(long number, long a0, long a1, long a2, long a3, long a4, long a5) {
#if defined(__x86_64__)
    long result;
    register long r10 __asm__("r10") = a3;
    register long r8 __asm__("r8") = a4;
    register long r9 __asm__("r9") = a5;
    __asm__ volatile("syscall"
                     : "=a"(result)
                     : "a"(number), "D"(a0), "S"(a1), "d"(a2), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    if (result < 0 && result > -4096) {
        errno = static_cast<int>(-result);
        return -1;
    }
    return result;
#else
#error "system_call6: only x86-64 is supported (as the rest of the runtime)"
#endif
}

void* map_anonymous(std::size_t size) {
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
}

namespace {
// The program may have lowered RLIMIT_FSIZE (a test of its own EFBIG handling): a write of the
// runtime past it would raise SIGXFSZ, whose default action ends the program, in the thread
// that made the write, and fail with EFBIG. The trace is not the program's file: the runtime
// writes with SIGXFSZ blocked, drops the signal its own write raised (one that was pending
// before is the program's and stays), and retries once with the soft limit raised to the hard
// one, restoring the program's limit right after (a window of three system calls in which the
// program's own writes are not limited). A hard limit the program lowered too cuts the trace,
// which says why (issue 13). ThreadSanitizer writes no file and is not affected.
constexpr u64 kXfszBit = u64{1} << (SIGXFSZ - 1);

long write_once(int fd, const char* p, std::size_t n) {
    long w;
    do
        w = system_call(SYS_write, fd, p, n);
    while (w < 0 && errno == EINTR);
    if (w >= 0 || errno != EFBIG) return w;
    struct rlimit limit {};
    if (system_call(SYS_prlimit64, 0, RLIMIT_FSIZE, nullptr, &limit) != 0 ||
        limit.rlim_cur == limit.rlim_max)
        return w;
    const struct rlimit raised = {limit.rlim_max, limit.rlim_max};
    if (system_call(SYS_prlimit64, 0, RLIMIT_FSIZE, &raised, nullptr) != 0) return w;
    w = system_call(SYS_write, fd, p, n);
    const int error = errno;
    system_call(SYS_prlimit64, 0, RLIMIT_FSIZE, &limit, nullptr);
    errno = error;
    return w;
}
} // namespace

bool write_all(int fd, const void* data, std::size_t n) {
    const char* p = static_cast<const char*>(data);
    u64 blocked = kXfszBit, saved = 0, pending = 0;
    system_call(SYS_rt_sigprocmask, SIG_BLOCK, &blocked, &saved, sizeof(u64));
    system_call(SYS_rt_sigpending, &pending, sizeof(u64));
    bool ok = true;
    while (n > 0) {
        const long w = write_once(fd, p, n);
        if (w < 0) {
            ok = false;
            break;
        }
        p += w;
        n -= static_cast<std::size_t>(w);
    }
    const int error = errno;
    u64 now_pending = 0;
    system_call(SYS_rt_sigpending, &now_pending, sizeof(u64));
    if ((now_pending & kXfszBit) != 0 && (pending & kXfszBit) == 0) {
        const struct timespec zero = {0, 0};
        system_call(SYS_rt_sigtimedwait, &blocked, nullptr, &zero, sizeof(u64));
    }
    system_call(SYS_rt_sigprocmask, SIG_SETMASK, &saved, nullptr, sizeof(u64));
    errno = error;
    return ok;
}

void message(const char* text) {
    Line l;
    l.s("firstrace: ").s(text).s("\n");
    write_all(2, l.buf, l.n);
}

u64 now() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<u64>(ts.tv_sec) * 1000000000ull + static_cast<u64>(ts.tv_nsec);
}

int file_open_at(int dir, const char* path, int flags, unsigned mode) {
    return static_cast<int>(system_call(SYS_openat, dir, path, flags, mode));
}

int file_create_at(int dir, const char* name, int flags) {
    const int fd =
        file_open_at(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | flags, 0600);
    // by name: the number may already be the program's (rt_own_descriptors.hpp, own_trace_file)
    if (fd >= 0) system_call(SYS_fchmodat, dir, name, 0600, 0);
    return fd;
}

long file_read(int fd, void* buf, std::size_t n) {
    return system_call(SYS_read, fd, buf, n);
}

int file_close(int fd) {
    return static_cast<int>(system_call(SYS_close, fd));
}

} // namespace frt
