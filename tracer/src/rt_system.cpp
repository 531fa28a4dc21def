// Freestanding helpers (rt_system.hpp).
#include "rt_system.hpp"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
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

bool write_all(int fd, const void* data, std::size_t n) {
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
        const ssize_t w = system_call(SYS_write, fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        p += w;
        n -= static_cast<std::size_t>(w);
    }
    return true;
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
    if (fd >= 0) system_call(SYS_fchmod, fd, 0600);
    return fd;
}

long file_read(int fd, void* buf, std::size_t n) {
    return system_call(SYS_read, fd, buf, n);
}

int file_close(int fd) {
    return static_cast<int>(system_call(SYS_close, fd));
}

} // namespace frt
