// The trace directory and its metadata file (trace_format.hpp, metadata_key): the directory is
// opened once and checked (ours, not writable by others), and every file in it is created
// through that descriptor with O_EXCL|O_NOFOLLOW, so nothing planted there is followed or
// truncated (issue 13). The metadata file gets the header at start-up (format and tool
// versions, program, arguments, pid, host, clocks, loaded modules), `instrumented 1` once
// instrumented code announced itself, the modules again at exit and the end line.
#include "rt_metadata.hpp"
#include "rt_environment.hpp"
#include "rt_exec_predecessor.hpp"
#include "rt_own_descriptors.hpp"

#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

namespace frt {

namespace key = firstrace::format::metadata_key;

namespace {
char g_dir[4096];
// runtime descriptors (rt_own_descriptors.hpp): read at each use, the program may move them
std::atomic<int> g_dir_fd{-1};
std::atomic<int> g_meta_fd{-1};
bool g_announce = false; // print the trace path at exit (not under `firstrace record`)
std::atomic<bool> g_instrumented{false};
std::atomic<int> g_write_errno{0};
std::atomic<u32> g_write_error_stream{0};

// arg: null for every module, else the base address (dlpi_addr) of the one to write
int module_callback(struct dl_phdr_info* info, size_t, void* arg) {
    if (arg != nullptr && info->dlpi_addr != *static_cast<const u64*>(arg)) return 0;
    const char* name = info->dlpi_name;
    char exe[4096];
    if (name == nullptr || name[0] == 0) {
        const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0) return 0;
        exe[n] = 0;
        name = exe;
    }
    if (std::strncmp(name, "linux-vdso", 10) == 0) return 0;
    u64 lo = ~0ull, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const auto& ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_LOAD) continue;
        const u64 a = info->dlpi_addr + ph.p_vaddr;
        if (a < lo) lo = a;
        if (a + ph.p_memsz > hi) hi = a + ph.p_memsz;
    }
    if (hi == 0) return 0;
    Line l;
    l.s(key::kModule).s(" ").x(info->dlpi_addr).s(" ").x(lo).s(" ").x(hi).s(" ").esc(name);
    write_metadata_line(l);
    return 0;
}

void write_header() {
    Line l;
    l.s(key::kHeader).s(" ").u(firstrace::format::kFormatVersion);
    write_metadata_line(l);
    l.n = 0;
    l.s(key::kToolVersion).s(" ").s(FIRSTRACE_VERSION);
    write_metadata_line(l);
    char exe[4096];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        l.n = 0;
        l.s(key::kProgram).s(" ").esc(exe, static_cast<std::size_t>(n));
        write_metadata_line(l);
    }
    const int fd = file_open_at(AT_FDCWD, "/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        char args[16384];
        ssize_t got = 0, r;
        while (got < static_cast<ssize_t>(sizeof args) &&
               (r = file_read(fd, args + got, sizeof args - got)) > 0)
            got += r;
        file_close(fd);
        for (ssize_t i = 0; i < got;) {
            const std::size_t len = strnlen(args + i, static_cast<std::size_t>(got - i));
            l.n = 0;
            l.s(key::kArg).s(" ").esc(args + i, len);
            write_metadata_line(l);
            i += static_cast<ssize_t>(len) + 1;
        }
    }
    l.n = 0;
    l.s(key::kPid).s(" ").u(static_cast<u64>(getpid()));
    write_metadata_line(l);
    struct utsname host;
    if (uname(&host) == 0) {
        l.n = 0;
        l.s(key::kHost).s(" ").esc(host.nodename);
        write_metadata_line(l);
    }
    struct timespec rt;
    clock_gettime(CLOCK_REALTIME, &rt);
    l.n = 0;
    l.s(key::kStartTime)
        .s(" ")
        .u(static_cast<u64>(rt.tv_sec))
        .s(".")
        .u(static_cast<u64>(rt.tv_nsec));
    write_metadata_line(l);
    l.n = 0;
    l.s(key::kClock).s(" ").u(now());
    write_metadata_line(l);
    write_modules();
}

// The fork child's trace directory (g_dir, just created by the child, mode 0700): streams and
// metadata are created through its descriptor, as in open_trace_directory.
void reopen_metadata() {
    close_own_descriptor(g_meta_fd);
    close_own_descriptor(g_dir_fd);
    own_descriptor(g_dir_fd,
                   file_open_at(AT_FDCWD, g_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    own_descriptor(
        g_meta_fd,
        g_dir_fd < 0 ? -1 : file_create_at(g_dir_fd, firstrace::format::kMetadataFile, O_APPEND));
}
} // namespace

void write_metadata_line(Line& l) {
    const int fd = g_meta_fd.load(std::memory_order_relaxed);
    if (fd < 0) return;
    l.s("\n");
    write_all(fd, l.buf, l.n);
}

void write_modules() {
    dl_iterate_phdr(module_callback, nullptr);
}

void write_module_at(u64 base) {
    dl_iterate_phdr(module_callback, &base);
}

int trace_directory_fd() {
    return g_dir_fd;
}

namespace {
int g_trace_owner = 0; // the process id of the trace's process
} // namespace

bool owns_trace() {
    return static_cast<int>(getpid()) == g_trace_owner;
}

namespace {
// Opens the trace directory g_dir (made if missing) and refuses one that is not safe; false
// (after a message on stderr) when it cannot be used.
bool open_checked_directory() {
    if (mkdir(g_dir, 0700) == 0) {
        system_call(SYS_chmod, g_dir, 0700); // the program's umask may have taken our bits
    } else if (errno != EEXIST) {
        Line l;
        l.s("cannot create trace directory ")
            .s(g_dir)
            .s(": ")
            .s(strerror(errno))
            .s("; not tracing");
        message(l.c_str());
        return false;
    }
    close_own_descriptor(g_dir_fd);
    own_descriptor(g_dir_fd,
                   file_open_at(AT_FDCWD, g_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    struct stat dir_stat;
    const char* refused = nullptr;
    if (g_dir_fd < 0 || fstat(g_dir_fd, &dir_stat) != 0)
        refused = strerror(errno);
    else if (dir_stat.st_uid != geteuid())
        refused = "owned by another user";
    else if (dir_stat.st_mode & (S_IWGRP | S_IWOTH))
        refused = "writable by other users";
    if (refused != nullptr) {
        Line l;
        l.s("refusing trace directory ").s(g_dir).s(": ").s(refused).s("; not tracing");
        message(l.c_str());
        close_own_descriptor(g_dir_fd);
        return false;
    }
    return true;
}

// g_dir/<prefix><our pid> becomes the trace directory's name; false when too long.
bool descend_into_process_directory(const char* prefix) {
    Line dir;
    dir.s(g_dir).s("/").s(prefix).u(static_cast<u64>(getpid()));
    if (dir.n >= sizeof g_dir - 64) return false;
    std::memcpy(g_dir, dir.c_str(), dir.n + 1);
    return true;
}

// An exec chain nests exec-<pid> once per image of the process; more than this many images of
// one process in one trace (a loop of execs) are not traced.
constexpr int kMaxExecNesting = 64;
} // namespace

bool open_trace_directory() {
    g_trace_owner = static_cast<int>(getpid());
    const char* out = runtime_getenv("FIRSTRACE_OUTPUT");
    Line dir;
    // An absolute name: a program that changes its directory (daemon() does chdir("/")) and
    // forks later still finds the trace directory for its child's fork-<pid>.
    if (char cwd[2048]; (out == nullptr || out[0] != '/') &&
                        system_call(SYS_getcwd, cwd, sizeof cwd) > 0 && cwd[1] != 0)
        dir.s(cwd).s("/");
    if (out && out[0]) {
        dir.s(out);
    } else {
        dir.s("firstrace.").u(static_cast<u64>(getpid())).s(".trace");
        g_announce = true;
    }
    if (dir.n >= sizeof g_dir - 64) {
        message("trace directory name too long; not tracing");
        return false;
    }
    std::memcpy(g_dir, dir.c_str(), dir.n + 1);
    // An image exec'd by a traced fork child: its trace nests in the child's fork-<pid>.
    if (char relative[2048]; find_exec_predecessor(g_dir, relative, sizeof relative)) {
        dir.s("/").s(relative);
        if (dir.n < sizeof g_dir - 64) std::memcpy(g_dir, dir.c_str(), dir.n + 1);
    }
    // The metadata file is created exclusively: the process that creates it owns the
    // directory. One that finds it taken was started under a traced process (exec'd by it or
    // by its fork child, or by posix_spawn/system/popen): it traces into exec-<pid> inside,
    // whose metadata is taken in turn when this process is an exec of an exec of ... (from the
    // fork child's fork-<pid> when the image replaced was a fork child's)
    for (int depth = 0;; ++depth) {
        if (!open_checked_directory()) return false;
        own_descriptor(g_meta_fd,
                       file_create_at(g_dir_fd, firstrace::format::kMetadataFile, O_APPEND));
        if (g_meta_fd >= 0) break;
        const int error = errno;
        if (error != EEXIST || depth == kMaxExecNesting ||
            !descend_into_process_directory(firstrace::format::kExecPrefix)) {
            Line l;
            l.s("cannot create ")
                .s(g_dir)
                .s("/")
                .s(firstrace::format::kMetadataFile)
                .s(": ")
                .s(strerror(error))
                .s("; not tracing");
            message(l.c_str());
            close_own_descriptor(g_dir_fd);
            return false;
        }
    }
    write_header();
    return true;
}

void mark_instrumented() {
    if (g_instrumented.exchange(true)) return;
    Line l;
    l.s(key::kInstrumented).s(" 1");
    write_metadata_line(l);
}

bool enter_fork_directory() {
    // (on failure the child is not traced: g_dir is not used again)
    if (!descend_into_process_directory(firstrace::format::kForkPrefix) || mkdir(g_dir, 0700) != 0)
        return false;
    system_call(SYS_chmod, g_dir, 0700); // the program's umask may have taken our bits
    g_trace_owner = static_cast<int>(getpid());
    reopen_metadata();
    return true;
}

void write_fork_header() {
    write_header();
    if (g_instrumented.load()) { // the child runs the same instrumented code
        Line l;
        l.s(key::kInstrumented).s(" 1");
        write_metadata_line(l);
    }
}

void note_stream_write_failed(u32 stream, int error) {
    int none = 0;
    if (!g_write_errno.compare_exchange_strong(none, error)) return;
    g_write_error_stream.store(stream);
    Line l;
    l.s("cannot write the trace (").s(strerror(error)).s("): ").s(g_dir).s("/");
    l.s(firstrace::format::kStreamPrefix).u(stream).s(firstrace::format::kStreamSuffix);
    l.s(" ends here");
    message(l.c_str());
}

void write_not_started(u32 pid) {
    Line l;
    l.s(key::kNotStarted).s(" ").u(pid);
    write_metadata_line(l);
}

void write_end_line(const char* how, long value, u32 running) {
    if (const int error = g_write_errno.load(); error != 0) {
        Line w;
        w.s(key::kWriteError).s(" ").u(g_write_error_stream.load()).s(" ").i(error);
        write_metadata_line(w);
    }
    Line l;
    l.s("end ").s(how).s(" ").i(value).s(" ").u(running);
    write_metadata_line(l);
}

long metadata_size() {
    const int fd = g_meta_fd.load(std::memory_order_relaxed);
    return fd < 0 ? -1 : system_call(SYS_lseek, fd, 0, SEEK_END);
}

void retract_metadata_to(long size) {
    // O_APPEND: the next line is written at the new end
    const int fd = g_meta_fd.load(std::memory_order_relaxed);
    if (fd >= 0 && size >= 0) system_call(SYS_ftruncate, fd, size);
}

void announce_trace() {
    if (!g_announce) return;
    Line m;
    m.s("trace written to ").s(g_dir);
    message(m.c_str());
}

} // namespace frt
