// Freestanding helpers (rt_system.hpp).
#include "rt_system.hpp"

#include <errno.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

namespace frt {

void* map_anonymous(std::size_t size) {
    void* p = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? nullptr : p;
}

bool write_all(int fd, const void* data, std::size_t n) {
    const char* p = static_cast<const char*>(data);
    while (n > 0) {
        const ssize_t w = ::write(fd, p, n);
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

} // namespace frt
