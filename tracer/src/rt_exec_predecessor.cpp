// Where an exec'd image's trace goes when the image it replaced was a traced fork child's. The
// new image knows only FIRSTRACE_OUTPUT, the top of the recording (its environment is the
// program's: passing it more would change what the program sees), so it found the top's
// metadata taken and traced into exec-<pid> beside the fork child's fork-<pid>, not inside it
// as an exec of the process that fork-<pid> traced. The process is the same (same pid), so the
// new image looks for fork-<its pid> among the process traces nested in the top (fork-N and
// exec-N directories, depth first, 16 levels at most) and starts there; the exec chain inside it
// (exec-<pid>, exec-<pid>/exec-<pid>, ...) is then walked as for the top (rt_metadata.cpp). Only
// a chain whose last trace ended with `end exec` is the predecessor: a fork-<pid> left by an
// earlier process with the same number ended otherwise (exit, _exit, a signal) or not at all.
// System calls only, into stack buffers: this runs at start-up, before the program's malloc may.
#include "rt_exec_predecessor.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>

#include "rt_system.hpp"

namespace frt {

namespace {

constexpr int kMaxDepth = 16;

struct DirectoryEntry { // the kernel's linux_dirent64
    u64 inode;
    i64 offset;
    unsigned short length;
    unsigned char type;
    char name[1];
};

// A name of a process trace: fork-N or exec-N.
bool process_trace_name(const char* name) {
    const char* digits = nullptr;
    for (const char* prefix : {firstrace::format::kForkPrefix, firstrace::format::kExecPrefix})
        if (std::strncmp(name, prefix, std::strlen(prefix)) == 0)
            digits = name + std::strlen(prefix);
    if (digits == nullptr || *digits == 0) return false;
    for (; *digits != 0; ++digits)
        if (*digits < '0' || *digits > '9') return false;
    return true;
}

bool directory_at(int dir, const char* name) {
    struct stat st;
    return system_call(SYS_newfstatat, dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
           S_ISDIR(st.st_mode);
}

int open_directory_at(int dir, const char* name) {
    return file_open_at(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

// The path being searched, relative to the top.
struct Path {
    char text[2048] = {0};
    std::size_t n = 0;
    bool push(const char* name) {
        const std::size_t length = std::strlen(name);
        if (n + length + 2 > sizeof text) return false;
        if (n != 0) text[n++] = '/';
        std::memcpy(text + n, name, length + 1);
        n += length;
        return true;
    }
    void pop_to(std::size_t mark) {
        n = mark;
        text[n] = 0;
    }
};

// Depth first from dir (at `path`): true with `path` naming the directory `wanted`.
bool find_directory(int dir, const char* wanted, Path& path, int depth) {
    const std::size_t mark = path.n;
    if (directory_at(dir, wanted)) return path.push(wanted);
    if (depth == kMaxDepth) return false;
    alignas(8) char entries[2048];
    for (;;) {
        const long got = system_call(SYS_getdents64, dir, entries, sizeof entries);
        if (got <= 0) return false;
        for (long at = 0; at < got;) {
            const auto* e = reinterpret_cast<const DirectoryEntry*>(entries + at);
            at += e->length;
            if ((e->type != DT_DIR && e->type != DT_UNKNOWN) || !process_trace_name(e->name))
                continue;
            const int sub = open_directory_at(dir, e->name);
            if (sub < 0) continue;
            const bool found = path.push(e->name) && find_directory(sub, wanted, path, depth + 1);
            file_close(sub);
            if (found) return true;
            path.pop_to(mark);
        }
    }
}

// Whether the metadata file in dir ends (its last `end` line) with an exec.
bool ended_by_exec(int dir) {
    const int fd =
        file_open_at(dir, firstrace::format::kMetadataFile, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return false;
    struct stat st;
    char tail[512];
    long got = -1;
    if (system_call(SYS_fstat, fd, &st) == 0 && S_ISREG(st.st_mode)) {
        const long from = st.st_size > static_cast<long>(sizeof tail) - 1
                              ? st.st_size - static_cast<long>(sizeof tail) + 1
                              : 0;
        got = system_call(SYS_pread64, fd, tail, sizeof tail - 1, from);
    }
    file_close(fd);
    if (got <= 0) return false;
    tail[got] = 0;
    const char* last_end = nullptr;
    for (const char* at = tail; (at = std::strstr(at, "\nend ")) != nullptr; ++at)
        last_end = at;
    return last_end != nullptr && std::strncmp(last_end, "\nend exec ", 10) == 0;
}

} // namespace

bool find_exec_predecessor(const char* top, char* relative, std::size_t size) {
    const int top_fd = open_directory_at(AT_FDCWD, top);
    if (top_fd < 0) return false;
    Line fork_name, exec_name;
    fork_name.s(firstrace::format::kForkPrefix).u(static_cast<u64>(getpid()));
    exec_name.s(firstrace::format::kExecPrefix).u(static_cast<u64>(getpid()));
    Path path;
    bool found = find_directory(top_fd, fork_name.c_str(), path, 0);
    if (found) { // the exec chain inside it, to its last trace
        int dir = open_directory_at(top_fd, path.text);
        for (int images = 0; dir >= 0 && images < 64 && directory_at(dir, exec_name.c_str());
             ++images) {
            const int next = open_directory_at(dir, exec_name.c_str());
            file_close(dir);
            dir = next;
        }
        found = dir >= 0 && ended_by_exec(dir) && path.n < size;
        if (dir >= 0) file_close(dir);
    }
    file_close(top_fd);
    if (found) std::memcpy(relative, path.text, path.n + 1);
    return found;
}

} // namespace frt
