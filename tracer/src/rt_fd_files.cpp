// Files and FIFOs: one object of the file system, however many times they are opened.
//
//   a FIFO or a regular file   every open of it (open, openat, creat, fopen, ...: each a new
//                              open file description) shares one description, the file's:
//                              its (device, inode) hashed into a range of description ids of
//                              its own. A FIFO is one pipe whoever opened its ends, so a write
//                              is ordered before the read that gets the data, as for pipe();
//                              a regular file keeps what was written to it (XSH 2.9.7: a read
//                              that returns a write's data is after it), so a write through
//                              one open is ordered before a read through another. A hash
//                              collision (2^34 ids) or an inode reused by a new file only
//                              merges two files' writers: ordering, never a false race.
//                              (ThreadSanitizer shares one description among all files.)
//   opening a regular file     for reading: an Acquire of its writers so far, as a read: the
//                              contents there are theirs, and a stream (fopen) reads them
//                              inside the C library, where no read is seen.
// The sends that end writing (a close, an fflush: rt_fd.cpp) complete the stream case.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "rt_fd.hpp"
#include "rt_fd_table.hpp"
#include "rt_record.hpp"
#include "rt_system.hpp"

using namespace frt;

namespace {
// Above the counters' descriptions (sockets, pipes: small numbers) and below the message
// queues' keys: description_key() shifts an id by 21 and the writer objects by 6 more.
constexpr u64 kFileDescriptions = u64{1} << 34;

struct FileIdentity {
    u64 hash; // of (device, inode); 0: fstat failed
    bool regular;
    bool fifo;
};

FileIdentity identify(int fd) {
    struct stat st;
    if (system_call(SYS_fstat, fd, &st) != 0) return {0, false, false};
    const u64 h =
        hash64((static_cast<u64>(st.st_dev) * 0x9E3779B97F4A7C15ull) ^ static_cast<u64>(st.st_ino));
    return {h | 1, S_ISREG(st.st_mode), S_ISFIFO(st.st_mode)};
}
} // namespace

u64 frt::fd::file_key(int fd) {
    return identify(fd).hash;
}

int frt::fd::file_opened(int fd, u64 pc, int flags) {
    created(fd, pc);
    DescriptorState* s = descriptor_state(fd);
    if (s == nullptr) return fd;
    const FileIdentity file = identify(fd);
    if (!file.regular && !file.fifo) return fd;
    const u64 d = kFileDescriptions | (file.hash & (kFileDescriptions - 1));
    s->description.store(d, std::memory_order_relaxed);
    const long mode = flags >= 0 ? flags : system_call(SYS_fcntl, fd, F_GETFL);
    if (mode >= 0)
        s->access.store(static_cast<u8>((mode & O_ACCMODE) + 1), std::memory_order_relaxed);
    if (!file.regular) return fd;
    s->kind.store(kRegularFile, std::memory_order_relaxed);
    if (mode < 0 || (mode & O_ACCMODE) == O_WRONLY) return fd;
    if (InterceptorScope scope(enter_call(pc)); scope) acquire_description(scope.thread(), d, pc);
    return fd;
}
