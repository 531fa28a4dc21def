// The runtime's own descriptors are invisible to and untouchable by the program, as Valgrind's
// (its `VG_(safe_fd)`: reserved numbers at the top of the limit, a close of one fails with EBADF).
// A program may close every descriptor at its start (`for (fd = 3; fd < 65536; fd++) close(fd)`,
// `close_range(3, ~0U, 0)`, `closefrom(3)`: daemons, test harnesses, programs that spawn
// children), close 0/1/2 and open files expecting the lowest numbers, or dup2 onto any number;
// none of that may lose or corrupt the trace. Decisions:
//
// - Numbers: every descriptor the runtime keeps open is moved (F_DUPFD_CLOEXEC) to the band of
//   the 256 numbers below min(soft RLIMIT_NOFILE at start-up, 65536): out of the way of the
//   program's lowest-free numbers, below the limit that loops to sysconf(_SC_OPEN_MAX) use (they
//   reach the band, and are handled below), never the program's 0/1/2 after it closed them. A
//   full band, or a limit the program lowered below it, keeps the number the kernel gave: still
//   the runtime's, protected the same way. All are close-on-exec.
// - close, fcntl, dup of a runtime descriptor, dup2/dup3 *from* one: fail with EBADF, as if the
//   number were not open (Valgrind's answer). A program that scans /proc/self/fd sees the
//   numbers listed and its closes fail with EBADF, as for a descriptor closed by another
//   thread meanwhile (such loops ignore the result).
// - close_range / closefrom / syscall(SYS_close_range): the real call on each run of the range
//   between runtime descriptors (CLOSE_RANGE_CLOEXEC and CLOSE_RANGE_UNSHARE too: the first
//   run unshares the table, the runtime's descriptors are in the unshared copy).
// - dup2/dup3 *onto* a runtime descriptor (the program names a number it was never given): the
//   runtime's descriptor moves to another number first (its holder, which the runtime reads at
//   every use, gets the new number), then the program's call does what it asked. A raw close
//   or dup2/dup3 announced by the sanitizer syscall hooks does the same in the pre hook, so the
//   raw call closes or replaces a number the runtime no longer uses.
//   A stream's move waits for the thread's io_lock: a chunk being compressed and written keeps
//   its number until the write is done (a thread running while the program took over every
//   number it listed lost its stream: EBADF in 1 run of 6).
// - Not covered: a raw `syscall` instruction the runtime does not see (no hook), a write of
//   the program into a runtime number (it would have to guess it), a metadata line whose number
//   was loaded just before the program's dup2 onto it replaced it, and a program dup2 that
//   checked a number just before a new trace file was registered there and lands after the
//   check (create_own_trace_file): windows of a few instructions in a program that dup2's
//   onto numbers it does not own. Likewise a close() of a number that was not the runtime's
//   when checked and became a new trace file's before the close (close_range/closefrom run
//   under the registry's lock instead: no such window).
#include "rt_own_descriptors.hpp"
#include "rt_system.hpp"

#include <errno.h>
#include <fcntl.h>
#include <linux/close_range.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>

namespace frt {

namespace {

constexpr int kMaxOwnFd = 1 << 20; // /proc/sys/fs/nr_open's default: no number above it
constexpr int kBand = 256;
constexpr int kBandCeiling = 1 << 16;

// Which numbers are the runtime's (a bit each: 128 KiB, zero pages until used) and the holder
// and I/O lock of each (mapped at the first registration).
struct Owner {
    std::atomic<std::atomic<int>*> holder;
    std::atomic<std::atomic<u32>*> io_lock;
};
std::atomic<u64> g_own_bits[kMaxOwnFd / 64];
Owner* g_owners = nullptr;
std::atomic<u32> g_lock{0};
int g_band_base = -1;

struct Locked {
    Locked() { spin_lock(g_lock); }
    ~Locked() { spin_unlock(g_lock); }
    Locked(const Locked&) = delete;
    Locked& operator=(const Locked&) = delete;
};

void mark(int fd, std::atomic<int>* holder, std::atomic<u32>* io_lock) {
    g_owners[fd].holder.store(holder, std::memory_order_relaxed);
    g_owners[fd].io_lock.store(io_lock, std::memory_order_relaxed);
    g_own_bits[fd / 64].fetch_or(u64{1} << (fd % 64), std::memory_order_release);
}

void unmark(int fd) {
    g_own_bits[fd / 64].fetch_and(~(u64{1} << (fd % 64)), std::memory_order_release);
    g_owners[fd].holder.store(nullptr, std::memory_order_relaxed);
    g_owners[fd].io_lock.store(nullptr, std::memory_order_relaxed);
}

// fd is the runtime's and kept in holder (the caller holds g_lock).
bool held_by(int fd, const std::atomic<int>* holder) {
    return fd >= 0 && fd < kMaxOwnFd && g_owners != nullptr &&
           g_owners[fd].holder.load(std::memory_order_relaxed) == holder;
}

int band_base() {
    if (g_band_base < 0) { // first called at start-up, before the program can lower the limit
        struct rlimit limit {};
        long soft = 1024;
        if (system_call(SYS_prlimit64, 0, RLIMIT_NOFILE, nullptr, &limit) == 0)
            soft = limit.rlim_cur > static_cast<rlim_t>(kBandCeiling)
                       ? kBandCeiling
                       : static_cast<long>(limit.rlim_cur);
        g_band_base =
            soft > 2 * kBand ? static_cast<int>(soft - kBand) : static_cast<int>(soft / 2);
        if (g_band_base < 3) g_band_base = 3;
    }
    return g_band_base;
}

// A copy of fd in the band (close-on-exec), or -1.
int copy_into_band(int fd) {
    const int moved = static_cast<int>(system_call(SYS_fcntl, fd, F_DUPFD_CLOEXEC, band_base()));
    return moved >= kMaxOwnFd ? (system_call(SYS_close, moved), -1) : moved;
}

bool owners_ready() {
    if (g_owners == nullptr)
        g_owners = static_cast<Owner*>(map_anonymous(kMaxOwnFd * sizeof(Owner)));
    return g_owners != nullptr;
}

} // namespace

bool is_own_descriptor(int fd) {
    return fd >= 0 && fd < kMaxOwnFd &&
           (g_own_bits[fd / 64].load(std::memory_order_acquire) >> (fd % 64) & 1) != 0;
}

int own_descriptor(std::atomic<int>& holder, int fd, std::atomic<u32>* io_lock) {
    if (fd < 0 || fd >= kMaxOwnFd) {
        holder.store(fd);
        return fd;
    }
    Locked locked;
    if (!owners_ready()) {
        holder.store(fd);
        return fd;
    }
    int kept = fd;
    if (fd < band_base()) {
        if (const int moved = copy_into_band(fd); moved >= 0) {
            system_call(SYS_close, fd);
            kept = moved;
        } else {
            system_call(SYS_fcntl, fd, F_SETFD, FD_CLOEXEC);
        }
    }
    mark(kept, &holder, io_lock);
    holder.store(kept);
    return kept;
}

namespace {
bool same_file(int fd, int dir, const char* name) {
    struct stat by_fd {
    }, by_name{};
    return system_call(SYS_fstat, fd, &by_fd) == 0 &&
           system_call(SYS_newfstatat, dir, name, &by_name, AT_SYMLINK_NOFOLLOW) == 0 &&
           by_fd.st_dev == by_name.st_dev && by_fd.st_ino == by_name.st_ino;
}
} // namespace

int create_own_trace_file(std::atomic<int>& holder, const TraceFile& file,
                          std::atomic<u32>* io_lock) {
    for (int attempt = 0; attempt < 4; ++attempt) {
        const int dir = file.directory(); // read again: the program may have moved it
        int fd = file_create_at(dir, file.name, file.create_flags);
        if (fd < 0 && errno == EEXIST && attempt > 0) // made by an attempt before
            fd =
                file_open_at(dir, file.name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | file.create_flags);
        if (fd < 0) {
            if (errno == ENOTDIR || errno == EBADF) continue; // a stale directory number
            break;
        }
        int placed = fd >= band_base() ? fd : copy_into_band(fd);
        if (placed < 0 && errno != EBADF) { // no number of the band free, or a limit below it
            if (file.band_only) {
                system_call(SYS_close, fd);
                break;
            }
            placed = fd;
        }
        if (placed >= 0) {
            // registered first, checked after: a dup2 onto the number from now on moves it
            // (vacate), one made before shows as another file
            own_descriptor(holder, placed, io_lock);
            if (same_file(holder.load(), file.directory(), file.name)) {
                if (placed != fd) system_call(SYS_close, fd);
                return holder.load();
            }
            forget_own_descriptor(holder); // the number may be the program's now: not closed
        }
        if (placed != fd && same_file(fd, file.directory(), file.name)) system_call(SYS_close, fd);
        errno = EBADF;
    }
    holder.store(-1);
    return -1;
}

int transfer_own_descriptor(std::atomic<int>& from, std::atomic<int>& to,
                            std::atomic<u32>* io_lock) {
    Locked locked;
    const int fd = from.exchange(-1);
    if (held_by(fd, &from)) {
        g_owners[fd].holder.store(&to);
        g_owners[fd].io_lock.store(io_lock);
    }
    to.store(fd);
    return fd;
}

void forget_own_descriptor(std::atomic<int>& holder) {
    Locked locked;
    const int fd = holder.exchange(-1);
    if (held_by(fd, &holder)) unmark(fd);
}

void close_own_descriptor(std::atomic<int>& holder) {
    Locked locked;
    const int fd = holder.exchange(-1);
    if (fd < 0) return;
    if (held_by(fd, &holder)) unmark(fd);
    system_call(SYS_close, fd);
}

bool vacate_own_descriptor(int fd) {
    // The I/O lock first, then the registry's: a thread that fails a write closes its stream
    // holding its io_lock (io_lock, then g_lock everywhere).
    while (is_own_descriptor(fd)) {
        std::atomic<u32>* io_lock = nullptr;
        {
            Locked locked;
            if (is_own_descriptor(fd)) io_lock = g_owners[fd].io_lock.load();
        }
        if (io_lock != nullptr)
            while (io_lock->exchange(1, std::memory_order_acquire) != 0)
                __builtin_ia32_pause();
        enum { kGone, kMoved, kNoNumber, kAgain } outcome = kGone;
        {
            Locked locked;
            std::atomic<int>* holder = is_own_descriptor(fd) ? g_owners[fd].holder.load() : nullptr;
            if (holder != nullptr && g_owners[fd].io_lock.load() != io_lock) {
                outcome = kAgain; // another descriptor took the number meanwhile
            } else if (holder != nullptr) {
                int moved = copy_into_band(fd);
                if (moved < 0)
                    moved = static_cast<int>(system_call(SYS_fcntl, fd, F_DUPFD_CLOEXEC, 3));
                outcome = moved >= 0 && moved < kMaxOwnFd ? kMoved : kNoNumber;
                if (outcome == kMoved) {
                    mark(moved, holder, io_lock);
                    holder->store(moved);
                    unmark(fd);
                }
            }
        }
        if (io_lock != nullptr) io_lock->store(0, std::memory_order_release);
        if (outcome != kAgain) return outcome != kNoNumber;
    }
    return true;
}

int close_range_sparing_own(unsigned first, unsigned last, int flags) {
    // Under the registry's lock from reading the bits to the last close: a trace file registered
    // after the bits were read but before a run's close_range reached its number was closed
    // (create_own_trace_file's check had passed: a thread's stream lost to main's closefrom, 1
    // run in ~60 of samples/fd-close-range-racy). Now a registration comes before (spared) or
    // after (its check sees the number closed and it makes the file again).
    Locked locked;
    unsigned lo = first;
    long result = 0;
    // the runtime's descriptors in [first, last], in order: each ends a run
    for (u64 word = first / 64; lo <= last && word < kMaxOwnFd / 64; ++word) {
        u64 bits = g_own_bits[word].load(std::memory_order_acquire);
        while (bits != 0) {
            const unsigned fd = static_cast<unsigned>(word * 64 + __builtin_ctzll(bits));
            bits &= bits - 1;
            if (fd < lo) continue;
            if (fd > last) break;
            if (fd > lo && system_call(SYS_close_range, lo, fd - 1, flags) != 0) return -1;
            lo = fd + 1;
        }
    }
    if (lo <= last && lo >= first) result = system_call(SYS_close_range, lo, last, flags);
    return static_cast<int>(result);
}

void own_descriptors_after_fork() {
    g_lock.store(0);
}

namespace detail {
int list_open_descriptors(unsigned first, unsigned last, int after, int* fds, int capacity) {
    const int dir = file_open_at(AT_FDCWD, "/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) return 0;
    int n = 0;
    alignas(8) char buf[4096];
    long got;
    while (n < capacity && (got = system_call(SYS_getdents64, dir, buf, sizeof buf)) > 0) {
        for (long off = 0; off < got && n < capacity;) {
            struct Entry {
                u64 ino;
                i64 next;
                unsigned short reclen;
                unsigned char type;
                char name[1];
            };
            const auto* e = reinterpret_cast<const Entry*>(buf + off);
            off += e->reclen;
            if (e->name[0] < '0' || e->name[0] > '9') continue;
            long fd = 0;
            for (const char* c = e->name; *c >= '0' && *c <= '9'; ++c)
                fd = fd * 10 + (*c - '0');
            if (fd == dir || fd <= after || fd < static_cast<long>(first) ||
                fd > static_cast<long>(last))
                continue;
            fds[n++] = static_cast<int>(fd);
        }
    }
    file_close(dir);
    return n;
}
} // namespace detail

} // namespace frt
