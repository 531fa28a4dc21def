// Freestanding helpers of the runtime (no stdio, no malloc, nothing that may take a lock of the
// program): anonymous memory, complete writes, messages on stderr, and a fixed-size line
// builder for the metadata file, messages and file names.
#pragma once

#include <cstring>
#include <type_traits>

#include "rt_internal.hpp"

namespace frt {

// Anonymous, lazily committed memory; null on failure.
void* map_anonymous(std::size_t size);
// Writes all n bytes (retrying on EINTR); false on any error.
bool write_all(int fd, const void* data, std::size_t n);
// "firstrace: text" on stderr.
void message(const char* text);

// The system call itself, as glibc's syscall() makes it (-1 and errno on failure), for the
// runtime's own calls: the program's syscall() is interposed (rt_futex.cpp) and may not be
// resolved yet when the runtime needs memory inside dlsym.
long system_call6(long number, long a0, long a1, long a2, long a3, long a4, long a5);
template <class T> FRT_INLINE long system_call_word(T v) {
    if constexpr (std::is_pointer_v<T> || std::is_null_pointer_v<T>)
        return reinterpret_cast<long>(v);
    else
        return static_cast<long>(v);
}
template <class... Args> FRT_INLINE long system_call(long number, Args... args) {
    static_assert(sizeof...(Args) <= 6, "a system call takes at most six arguments");
    long a[6] = {system_call_word(args)...};
    return system_call6(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}

// The runtime's own files (the trace directory, its metadata and streams, /proc): opened,
// read, written and closed by system calls, not through the program's interposed open/close/
// read/write, which model descriptors (rt_fd.cpp) and would take the runtime's files for the
// program's (a stream opened on a number the program just closed is a new incarnation of it).
int file_open_at(int dir, const char* path, int flags, unsigned mode = 0);
// A new file of the trace, write-only (O_EXCL, O_NOFOLLOW, close-on-exec, plus `flags`), mode
// 0600 whatever the program's umask (umask(0777) would leave the trace unreadable).
int file_create_at(int dir, const char* name, int flags = 0);
long file_read(int fd, void* buf, std::size_t n);
int file_close(int fd);

// The mixing step of the runtime's lock-free hash tables (sync objects, thread map).
FRT_INLINE u64 hash64(u64 k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k;
}

// A line of at most 4600 bytes, built in place: text, escaped text (the metadata format's
// escaping), decimal and hexadecimal numbers. Truncates silently.
struct Line {
    char buf[4600];
    std::size_t n = 0;
    Line& s(const char* str) {
        while (*str && n + 1 < sizeof buf)
            buf[n++] = *str++;
        return *this;
    }
    Line& esc(const char* str, std::size_t len) {
        static const char hex[] = "0123456789abcdef";
        for (std::size_t i = 0; i < len && n + 4 < sizeof buf; ++i) {
            const auto c = static_cast<unsigned char>(str[i]);
            if (firstrace::format::needs_escape(c)) {
                buf[n++] = '%';
                buf[n++] = hex[c >> 4];
                buf[n++] = hex[c & 15];
            } else {
                buf[n++] = static_cast<char>(c);
            }
        }
        return *this;
    }
    Line& esc(const char* str) { return esc(str, std::strlen(str)); }
    Line& u(u64 v) {
        char tmp[24];
        int k = 0;
        do {
            tmp[k++] = static_cast<char>('0' + v % 10);
            v /= 10;
        } while (v);
        while (k && n + 1 < sizeof buf)
            buf[n++] = tmp[--k];
        return *this;
    }
    Line& i(i64 v) {
        if (v < 0) {
            s("-");
            return u(static_cast<u64>(-(v + 1)) + 1);
        }
        return u(static_cast<u64>(v));
    }
    Line& x(u64 v) {
        static const char hex[] = "0123456789abcdef";
        char tmp[20];
        int k = 0;
        do {
            tmp[k++] = hex[v & 15];
            v >>= 4;
        } while (v);
        while (k && n + 1 < sizeof buf)
            buf[n++] = tmp[--k];
        return *this;
    }
    const char* c_str() {
        buf[n] = 0;
        return buf;
    }
};

} // namespace frt
