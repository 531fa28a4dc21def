// File descriptors, as the kernel orders them.
//
//   data through a description   write/pwrite/writev/send/sendto/sendmsg: a Release on a
//                                kObjFile object of the open file description, before the
//                                real call (what the call puts in the pipe/socket/eventfd is
//                                there once it returns); read/pread/readv/recv/recvfrom/
//                                recvmsg returning >= 0: an Acquire after the call. A reader
//                                is ordered after every writer before it (several threads
//                                writing one pipe), while writers are not ordered after each
//                                other (threads writing to stdout stay unordered): each
//                                description has one object per writer (process id mod 64)
//                                and a read acquires all of those written so far. This is
//                                ThreadSanitizer's model (its release joins clocks).
//                                Descriptions: pipe() and socketpair() give both ends one
//                                description; dup, dup2, dup3 and fcntl(F_DUPFD*) share it;
//                                a socket's is that of its connection or address, shared with
//                                its peer (rt_socket.cpp: a send reaches its peer only; a
//                                socket whose peer cannot be told shares one description with
//                                all such sockets, ThreadSanitizer's model);
//                                a POSIX message queue's descriptors (rt_mq.cpp: a queue
//                                descriptor is a file descriptor on Linux) all share the
//                                queue's description, whatever mq_open made them, and keep
//                                one writer set per message priority: mq_send is a send on
//                                its priority's set, mq_receive acquires only the set of the
//                                priority of the message it got (that message was sent with
//                                it; a send of another priority cannot have been received);
//                                every open of a FIFO or a regular file shares the file's
//                                (rt_fd_files.cpp); any other descriptor is its own.
//   end of data                  close of a descriptor open for writing (a pipe, FIFO or
//                                stream connection), and shutdown(SHUT_WR or SHUT_RDWR) of a
//                                connection, is a send on the description's end of
//                                data, which only a read returning 0 (end of file) acquires;
//                                fflush and fclose of a stream whose buffer holds data are
//                                a send of it (the C library writes it inside), also on a
//                                regular file; what a stream reads: rt_stdio_input.cpp.
//   connections                  connect() is a Release before the call, accept() returning a
//                                socket an Acquire after it, on the listening address's
//                                description (rt_socket.cpp): what a client did before
//                                connecting happened before the server's accept returned.
//   the descriptor itself        every call that uses fd reads a byte that stands for fd's
//                                current incarnation; close(fd) writes it (then fd has a new
//                                incarnation: the kernel hands a closed number out again only
//                                after the close). So close racing with a read/write on the
//                                same fd is a race, and two unrelated uses of a reused fd
//                                number are not. dup2/dup3 onto an open fd replace it
//                                atomically (POSIX: no instant at which newfd is closed and
//                                not yet the duplicate), so they only *read* its byte and keep
//                                its incarnation: a read racing with a dup2 onto its fd gets
//                                one file or the other and is no race, a close racing with the
//                                dup2 is (ThreadSanitizer's model too).
//   buffers                      read & co. write the bytes they returned into the buffer,
//                                write & co. read the bytes they were given.
//   signalfd                     signalfd(-1, ...) hands out a descriptor (a new incarnation),
//                                signalfd(fd, ...) changes fd's mask (a use of fd); a read of
//                                a signalfd accepts the signals it returns synchronously, as
//                                sigwait does: an Acquire of each one's sends (rt_signals.cpp).
//   readiness                    a message queue descriptor's (epoll_wait, rt_epoll.cpp)
//                                acquires the writers of every priority: each send also
//                                releases the queue's writer object of kAnyPriority.
// Descriptors below kMaxFd (2^20, rt_fd_table.cpp) are modelled; larger ones only get the
// buffer accesses.
#include <errno.h>
#include <fcntl.h>
#include <linux/close_range.h>
#include <stdarg.h>
#include <sys/eventfd.h>
#include <sys/fanotify.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "rt_fd.hpp"
#include "rt_fd_table.hpp"
#include "rt_own_descriptors.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_signals.hpp"
#include "rt_socket.hpp"
#include "rt_system.hpp"
#include "rt_writer_sets.hpp"

using namespace frt;
using namespace frt::fd;
namespace fmt = firstrace::format;

// glibc 2.36's <sys/pidfd.h> declares these without C linkage in C++.
extern "C" int pidfd_open(pid_t pid, unsigned flags);
extern "C" int pidfd_getfd(int pidfd, int target, unsigned flags);

namespace {
std::atomic<u64> g_next_description{kSocketDescription + 1};
// Message queue i's description is kQueueDescriptions + i (the counter above never gets there).
constexpr u64 kQueueDescriptions = u64{1} << 40;
constexpr u64 kQueues = u64{1} << 20;
constexpr u32 kPriorities = 1u << 15;     // MQ_PRIO_MAX on Linux
constexpr u32 kAnyPriority = kPriorities; // a queue's writers of every priority (readiness)
// What a close of a descriptor open for writing sends: the end of its data. A read that returns
// 0 (end of file on a pipe, FIFO or stream connection: every such descriptor was closed) is
// ordered after it; a read that returns data is not (it observed a write, not the close), so
// the end has keys of its own, apart from the writers' (bit 57: above every description key).
constexpr u64 kEndOfData = u64{1} << 57;

const void* current_byte(int fd, const DescriptorState& s) {
    return descriptor_byte(fd, s.incarnation.load(std::memory_order_relaxed));
}

bool is_socket(const DescriptorState& s) {
    const u8 k = s.kind.load(std::memory_order_relaxed);
    return k == kStreamSocket || k == kDatagramSocket;
}

// A description's key: below 2^58 (rt_writer_sets.hpp: the writer's bit goes below it) and
// distinct from every other key. An own description (0) is keyed by its number; a
// message queue's by (queue, priority), above every other key.
u64 description_key(u64 d, int fd, u32 priority = 0) {
    if (d >= kQueueDescriptions && d < kQueueDescriptions + kQueues)
        return u64{1} << 56 | ((d - kQueueDescriptions) * (kPriorities + 1) + priority);
    return d != 0 ? d << 21 : static_cast<u64>(fd) + 1;
}
// The Release of this writer's object of a description key, and the Acquire of every writer
// object of the key so far (rt_writer_sets.hpp: one object per writer, bit = pid mod 64).
constinit WriterSets<fmt::kObjFile> g_writers;
void release_key(ThreadState* t, u64 key, u64 pc) {
    g_writers.release(t, key, pc);
}
void acquire_key(ThreadState* t, u64 key, u64 pc) {
    g_writers.acquire(t, key, pc);
}

// What a receive on fd acquires (a socket: its description and its family's of unknown peers; a
// message queue: the writers of `priority`); `end`: it returned end of file, so also the ends of
// data sent there (writes_ended).
void acquire_senders(ThreadState* t, int fd, DescriptorState& s, u64 pc, u32 priority, bool end) {
    const auto acquire = [&](u64 key) {
        acquire_key(t, key, pc);
        if (end) acquire_key(t, key | kEndOfData, pc);
    };
    if (is_socket(s)) {
        const u64 d = socket_receive_description(fd, s);
        acquire(description_key(d, fd));
        if (const u64 unknown = socket_unknown_peers(s); d != unknown)
            acquire(description_key(unknown, fd));
        return;
    }
    acquire(description_key(s.description.load(std::memory_order_relaxed), fd, priority));
}

void send_through(int fd, u64 pc, const void* buf, u64 n, u32 priority, const struct sockaddr* to,
                  socklen_t len) {
    InterceptorScope scope(enter_call(pc));
    if (!scope) return;
    ThreadState* t = scope.thread();
    DescriptorState* s = descriptor_state(fd);
    if (s != nullptr) library_access(t, pc, current_byte(fd, *s), 1, false);
    library_access(t, pc, buf, n, false);
    if (s == nullptr) return;
    if (is_socket(*s)) {
        release_key(t, description_key(socket_send_description(fd, *s, to, len), fd), pc);
        return;
    }
    const u64 d = s->description.load(std::memory_order_relaxed);
    release_key(t, description_key(d, fd, priority), pc);
    if (d >= kQueueDescriptions && d < kQueueDescriptions + kQueues) // readiness of any priority
        release_key(t, description_key(d, fd, kAnyPriority), pc);
}

// fd, open for writing, pushes out data without a write of the program (fflush, fclose: the C
// library writes the stream's buffer inside) or ends its data (`end`: close): a send on its
// description, or on its end of data. Read-only descriptors, a descriptor's own description
// and message queues (mq_close) send nothing; a regular file has no end of data.
void writes_ended(ThreadState* t, int fd, DescriptorState& s, u64 pc, bool end) {
    const u8 kind = s.kind.load(std::memory_order_relaxed);
    if (kind == kStreamSocket) {
        const u64 key = description_key(socket_send_description(fd, s, nullptr, 0), fd);
        release_key(t, end ? key | kEndOfData : key, pc);
        return;
    }
    const u64 d = s.description.load(std::memory_order_relaxed);
    if ((kind != kOtherKind && kind != kRegularFile) || (end && kind == kRegularFile) || d == 0 ||
        (d >= kQueueDescriptions && d < kQueueDescriptions + kQueues))
        return;
    const u8 known = s.access.load(std::memory_order_relaxed);
    const long flags = known != 0 ? known - 1 : system_call(SYS_fcntl, fd, F_GETFL);
    if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY) return;
    const u64 key = description_key(d, fd);
    release_key(t, end ? key | kEndOfData : key, pc);
}

} // namespace

namespace frt::fd {

void writes_flushed(int fd, u64 pc) {
    DescriptorState* s = descriptor_state(fd);
    if (s == nullptr) return;
    if (InterceptorScope scope(enter_call(pc)); scope)
        writes_ended(scope.thread(), fd, *s, pc, false);
}

void descriptor_read(ThreadState* t, int fd, u64 pc) {
    if (const DescriptorState* s = descriptor_state(fd))
        library_access(t, pc, current_byte(fd, *s), 1, false);
}
void release_description(ThreadState* t, u64 d, u64 pc) {
    release_key(t, description_key(d, -1), pc);
}
void acquire_description(ThreadState* t, u64 d, u64 pc) {
    acquire_key(t, description_key(d, -1), pc);
}

void before_send(int fd, u64 pc, const void* buf, u64 n, u32 priority) {
    send_through(fd, pc, buf, n, priority, nullptr, 0);
}
void before_send_to(int fd, u64 pc, const void* buf, u64 n, const struct sockaddr* to,
                    socklen_t len) {
    send_through(fd, pc, buf, n, 0, to, len);
}

void after_receive(int fd, u64 pc, ssize_t r, u32 priority) {
    InterceptorScope scope(enter_call(pc));
    if (!scope) return;
    ThreadState* t = scope.thread();
    DescriptorState* s = descriptor_state(fd);
    if (s == nullptr) return;
    library_access(t, pc, current_byte(fd, *s), 1, false);
    if (r >= 0) acquire_senders(t, fd, *s, pc, priority, r == 0);
}

// A message queue's readiness says a message of some priority is there: the writers of all.
void readiness_reported(int fd, u64 pc) {
    InterceptorScope scope(enter_call(pc));
    DescriptorState* s = descriptor_state(fd);
    if (!scope || s == nullptr) return;
    acquire_senders(scope.thread(), fd, *s, pc, queue_of(fd) != kNoQueue ? kAnyPriority : 0, false);
}

void received_into(const void* buf, ssize_t r, u64 pc) {
    if (r <= 0) return;
    if (InterceptorScope scope(enter_call(pc)); scope) {
        library_access(scope.thread(), pc, buf, static_cast<u64>(r), true);
    }
}

void iov_access(const struct iovec* iov, int n, u64 bytes, bool write, u64 pc) {
    InterceptorScope scope(enter_call(pc));
    if (!scope) return;
    ThreadState* t = scope.thread();
    for (int i = 0; i < n && bytes > 0; ++i) {
        const u64 k = iov[i].iov_len < bytes ? iov[i].iov_len : bytes;
        library_access(t, pc, iov[i].iov_base, k, write);
        bytes -= k;
    }
}

void message_header_received(const struct msghdr* m, u64 pc) {
    if (InterceptorScope scope(enter_call(pc)); scope) {
        ThreadState* t = scope.thread();
        if (m->msg_name != nullptr) library_access(t, pc, m->msg_name, m->msg_namelen, true);
        if (m->msg_control != nullptr)
            library_access(t, pc, m->msg_control, m->msg_controllen, true);
        library_access(t, pc, &m->msg_flags, sizeof m->msg_flags, true);
    }
    for (const struct cmsghdr* c = CMSG_FIRSTHDR(m); c != nullptr;
         c = CMSG_NXTHDR(const_cast<struct msghdr*>(m), const_cast<struct cmsghdr*>(c))) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        const u64 count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (u64 i = 0; i < count; ++i) {
            int received;
            __builtin_memcpy(&received, CMSG_DATA(c) + i * sizeof(int), sizeof received);
            file_opened(received, pc);
        }
    }
}

u64 iov_bytes(const struct iovec* iov, int n) {
    u64 s = 0;
    for (int i = 0; i < n; ++i)
        s += iov[i].iov_len;
    return s;
}

// fd is closed or replaced: a write of its byte. Its uses after the close (a bug) still read
// the same byte; the next descriptor the kernel hands out with that number starts a new
// incarnation (created()). The close is also a Release of the byte, taken before the real
// close (so before any open that can get the number again), for the incarnation that reuses
// the byte incarnations(fd) later.
void retired(int fd, u64 pc) {
    DescriptorState* s = descriptor_state(fd);
    if (s == nullptr) return;
    if (InterceptorScope scope(enter_call(pc)); scope) {
        library_access(scope.thread(), pc, current_byte(fd, *s), 1, true);
        writes_ended(scope.thread(), fd, *s, pc, true);
        file_lock_closed(scope.thread(), fd, *s, pc);
        release_now(scope.thread(), fmt::kObjFile, current_byte(fd, *s), pc, false);
    }
    s->description.store(0, std::memory_order_relaxed);
    s->kind.store(kOtherKind, std::memory_order_relaxed);
}

// The kernel handed out fd: a new incarnation of the number, its own description. Incarnations
// share a byte incarnations(fd) apart: when this one takes over a byte, it acquires the close
// that retired the byte's last incarnation (the kernel handed the number out after that
// close), so that the two incarnations' uses and closes are not taken for a race. Only then:
// ordering every open after the close of the number's previous incarnation would hide races
// between threads that reuse a number by chance (drd's concurrent_close: 256 threads opening
// and closing /dev/null, all on descriptor 3, raced with the closes 64 incarnations earlier).
int created(int fd, u64 pc) {
    DescriptorState* s = descriptor_state(fd);
    if (s == nullptr) return fd;
    const u32 inc = s->incarnation.fetch_add(1, std::memory_order_relaxed) + 1;
    s->description.store(0, std::memory_order_relaxed);
    s->peer.store(0, std::memory_order_relaxed);
    s->kind.store(kOtherKind, std::memory_order_relaxed);
    s->resolved.store(0, std::memory_order_relaxed);
    s->role.store(0, std::memory_order_relaxed);
    s->file_lock.store(0, std::memory_order_relaxed);
    s->access.store(0, std::memory_order_relaxed);
    if (inc >= incarnations(fd)) {
        if (InterceptorScope scope(enter_call(pc)); scope) {
            if (find_object(fmt::kObjFile, current_byte(fd, *s)) != nullptr)
                acquire_now(scope.thread(), fmt::kObjFile, current_byte(fd, *s), pc);
        }
    }
    return fd;
}

// A read of fd returned r bytes at buf: when fd is a signalfd, the signals it accepted.
void signals_read(int fd, const void* buf, ssize_t r, u64 pc) {
    const DescriptorState* s = descriptor_state(fd);
    if (r <= 0 || s == nullptr || s->kind.load(std::memory_order_relaxed) != kSignalfdKind) return;
    const auto* info = static_cast<const struct signalfd_siginfo*>(buf);
    for (ssize_t i = 0; i < r / static_cast<ssize_t>(sizeof *info); ++i)
        signal_accepted(static_cast<int>(info[i].ssi_signo), pc);
}

} // namespace frt::fd

namespace {

FRT_DECLARE_REAL(read);
FRT_DECLARE_REAL(write);
FRT_DECLARE_REAL(pread);
FRT_DECLARE_REAL(pwrite);
FRT_DECLARE_REAL(pread64);
FRT_DECLARE_REAL(pwrite64);
FRT_DECLARE_REAL(readv);
FRT_DECLARE_REAL(writev);
FRT_DECLARE_REAL(recv);
FRT_DECLARE_REAL(recvfrom);
FRT_DECLARE_REAL(recvmsg);
FRT_DECLARE_REAL(send);
FRT_DECLARE_REAL(sendto);
FRT_DECLARE_REAL(sendmsg);
FRT_DECLARE_REAL(close);
FRT_DECLARE_REAL(shutdown);
FRT_DECLARE_REAL(dup);
FRT_DECLARE_REAL(dup2);
FRT_DECLARE_REAL(dup3);
FRT_DECLARE_REAL(pipe);
FRT_DECLARE_REAL(pipe2);
FRT_DECLARE_REAL(socketpair);
FRT_DECLARE_REAL(fcntl);
FRT_DECLARE_REAL(fcntl64);
FRT_DECLARE_REAL(eventfd);
FRT_DECLARE_REAL(memfd_create);
FRT_DECLARE_REAL(open_by_handle_at);
FRT_DECLARE_REAL(inotify_init);
FRT_DECLARE_REAL(inotify_init1);
FRT_DECLARE_REAL(fanotify_init);
FRT_DECLARE_REAL(pidfd_open);
FRT_DECLARE_REAL(pidfd_getfd);
FRT_DECLARE_REAL(posix_openpt);
FRT_DECLARE_REAL(getpt);
FRT_DECLARE_REAL(signalfd);
using open_fn = int (*)(const char*, int, ...);
using openat_fn = int (*)(int, const char*, int, ...);
FRT_DECLARE_REAL_TYPED(open, open_fn);
FRT_DECLARE_REAL_TYPED(open64, open_fn);
FRT_DECLARE_REAL_TYPED(openat, openat_fn);
FRT_DECLARE_REAL_TYPED(openat64, openat_fn);
FRT_DECLARE_REAL(creat);
FRT_DECLARE_REAL(creat64);
using open_2_fn = int (*)(const char*, int);
using openat_2_fn = int (*)(int, const char*, int);
FRT_DECLARE_REAL_TYPED(__open_2, open_2_fn);
FRT_DECLARE_REAL_TYPED(__open64_2, open_2_fn);
FRT_DECLARE_REAL_TYPED(__openat_2, openat_2_fn);
FRT_DECLARE_REAL_TYPED(__openat64_2, openat_2_fn);

// The mode argument of open/openat, present when a file may be created.
mode_t mode_of(int flags, va_list ap) {
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? va_arg(ap, mode_t) : 0;
}

} // namespace

FRT_EXPORT ssize_t read(int fd, void* buf, size_t n) {
    const ssize_t r = REAL(read)(fd, buf, n);
    after_receive(fd, FRT_CALLER(), r);
    received_into(buf, r, FRT_CALLER());
    signals_read(fd, buf, r, FRT_CALLER());
    return r;
}
namespace {
// A receive of r bytes into buf (pread, pread64 and their checked forms).
ssize_t read_into(int fd, void* buf, ssize_t r, u64 pc) {
    after_receive(fd, pc, r);
    received_into(buf, r, pc);
    return r;
}
} // namespace
FRT_EXPORT ssize_t pread(int fd, void* buf, size_t n, off_t off) {
    return read_into(fd, buf, REAL(pread)(fd, buf, n, off), FRT_CALLER());
}
// -D_FILE_OFFSET_BITS=64 programs call the 64 names (other symbols of the same functions).
FRT_EXPORT ssize_t pread64(int fd, void* buf, size_t n, off64_t off) {
    return read_into(fd, buf, REAL(pread64)(fd, buf, n, off), FRT_CALLER());
}
FRT_EXPORT ssize_t readv(int fd, const struct iovec* iov, int n) {
    const ssize_t r = REAL(readv)(fd, iov, n);
    after_receive(fd, FRT_CALLER(), r);
    if (r > 0) iov_access(iov, n, static_cast<u64>(r), true, FRT_CALLER());
    return r;
}
FRT_EXPORT ssize_t recv(int fd, void* buf, size_t n, int flags) {
    const ssize_t r = REAL(recv)(fd, buf, n, flags);
    after_receive(fd, FRT_CALLER(), r);
    received_into(buf, r, FRT_CALLER());
    return r;
}
FRT_EXPORT ssize_t recvfrom(int fd, void* buf, size_t n, int flags, struct sockaddr* from,
                            socklen_t* fromlen) {
    const ssize_t r = REAL(recvfrom)(fd, buf, n, flags, from, fromlen);
    after_receive(fd, FRT_CALLER(), r);
    received_into(buf, r, FRT_CALLER());
    return r;
}
FRT_EXPORT ssize_t recvmsg(int fd, struct msghdr* msg, int flags) {
    const ssize_t r = REAL(recvmsg)(fd, msg, flags);
    after_receive(fd, FRT_CALLER(), r);
    if (r > 0)
        iov_access(msg->msg_iov, static_cast<int>(msg->msg_iovlen), static_cast<u64>(r), true,
                   FRT_CALLER());
    if (r >= 0) message_header_received(msg, FRT_CALLER());
    return r;
}

FRT_EXPORT ssize_t write(int fd, const void* buf, size_t n) {
    before_send(fd, FRT_CALLER(), buf, n);
    return REAL(write)(fd, buf, n);
}
FRT_EXPORT ssize_t pwrite(int fd, const void* buf, size_t n, off_t off) {
    before_send(fd, FRT_CALLER(), buf, n);
    return REAL(pwrite)(fd, buf, n, off);
}
FRT_EXPORT ssize_t pwrite64(int fd, const void* buf, size_t n, off64_t off) {
    before_send(fd, FRT_CALLER(), buf, n);
    return REAL(pwrite64)(fd, buf, n, off);
}
FRT_EXPORT ssize_t writev(int fd, const struct iovec* iov, int n) {
    iov_access(iov, n, iov_bytes(iov, n), false, FRT_CALLER());
    before_send(fd, FRT_CALLER(), nullptr, 0);
    return REAL(writev)(fd, iov, n);
}
FRT_EXPORT ssize_t send(int fd, const void* buf, size_t n, int flags) {
    before_send(fd, FRT_CALLER(), buf, n);
    return REAL(send)(fd, buf, n, flags);
}
FRT_EXPORT ssize_t sendto(int fd, const void* buf, size_t n, int flags, const struct sockaddr* to,
                          socklen_t tolen) {
    before_send_to(fd, FRT_CALLER(), buf, n, to, tolen);
    return REAL(sendto)(fd, buf, n, flags, to, tolen);
}
FRT_EXPORT ssize_t sendmsg(int fd, const struct msghdr* msg, int flags) {
    iov_access(msg->msg_iov, static_cast<int>(msg->msg_iovlen),
               iov_bytes(msg->msg_iov, static_cast<int>(msg->msg_iovlen)), false, FRT_CALLER());
    before_send_to(fd, FRT_CALLER(), nullptr, 0, static_cast<const struct sockaddr*>(msg->msg_name),
                   msg->msg_namelen);
    return REAL(sendmsg)(fd, msg, flags);
}

namespace {
// A call on one of the runtime's own descriptors fails as if the number were not open (EBADF),
// or as if no number were free (EMFILE) for a dup2/dup3 onto one that cannot be moved
// (rt_own_descriptors.cpp).
int refused(int error) {
    errno = error;
    return -1;
}
} // namespace

FRT_EXPORT int close(int fd) {
    if (is_own_descriptor(fd)) return refused(EBADF);
    retired(fd, FRT_CALLER());
    return REAL(close)(fd);
}

// shutdown(SHUT_WR or SHUT_RDWR) ends the connection's data in that direction, as a close of
// the last descriptor does: the peer reads end of file. A use of fd.
FRT_EXPORT int shutdown(int fd, int how) {
    const u64 pc = FRT_CALLER();
    if (DescriptorState* s = descriptor_state(fd); s != nullptr) {
        if (InterceptorScope scope(enter_call(pc)); scope) {
            descriptor_read(scope.thread(), fd, pc);
            if (how == SHUT_WR || how == SHUT_RDWR) writes_ended(scope.thread(), fd, *s, pc, true);
        }
    }
    return REAL(shutdown)(fd, how);
}

// close_range/closefrom: each open descriptor of the range is closed as by close() (the
// runtime's own are spared); CLOSE_RANGE_CLOEXEC closes nothing, and CLOSE_RANGE_UNSHARE closes
// in a table of the calling thread's own, which the other threads do not share: neither retires
// a number of the process.
FRT_EXPORT int close_range(unsigned first, unsigned last, int flags) {
    const u64 pc = FRT_CALLER();
    if (first > last || (flags & ~(CLOSE_RANGE_CLOEXEC | CLOSE_RANGE_UNSHARE)) != 0)
        return static_cast<int>(system_call(SYS_close_range, first, last, flags));
    if ((flags & (CLOSE_RANGE_CLOEXEC | CLOSE_RANGE_UNSHARE)) == 0)
        for_each_program_descriptor(first, last, [&](int fd) { retired(fd, pc); });
    return close_range_sparing_own(first, last, flags);
}
FRT_EXPORT void closefrom(int low) {
    const u64 pc = FRT_CALLER();
    const unsigned first = low < 0 ? 0u : static_cast<unsigned>(low);
    const int saved = errno;
    for_each_program_descriptor(first, ~0u, [&](int fd) { retired(fd, pc); });
    if (close_range_sparing_own(first, ~0u, 0) != 0) // no close_range (Linux < 5.9): one by one
        for_each_program_descriptor(first, ~0u, [](int fd) { system_call(SYS_close, fd); });
    errno = saved;
}

// pipe, pipe2, socketpair: two new descriptors of one description (a write to one is read at
// the other).
int frt::fd::pipe_created(int r, const int fds[2], u64 pc, bool one_way) {
    if (r == 0) {
        created(fds[0], pc);
        created(fds[1], pc);
        const u64 d = g_next_description.fetch_add(1, std::memory_order_relaxed);
        for (int i = 0; i < 2; ++i)
            if (DescriptorState* s = descriptor_state(fds[i])) {
                s->description.store(d, std::memory_order_relaxed);
                const int mode = !one_way ? O_RDWR : i == 0 ? O_RDONLY : O_WRONLY;
                s->access.store(static_cast<u8>(mode + 1), std::memory_order_relaxed);
            }
    }
    return r;
}

FRT_EXPORT int pipe(int fds[2]) {
    return pipe_created(REAL(pipe)(fds), fds, FRT_CALLER(), true);
}
FRT_EXPORT int pipe2(int fds[2], int flags) {
    return pipe_created(REAL(pipe2)(fds, flags), fds, FRT_CALLER(), true);
}
FRT_EXPORT int socketpair(int domain, int type, int protocol, int fds[2]) {
    return pipe_created(REAL(socketpair)(domain, type, protocol, fds), fds, FRT_CALLER(), false);
}

namespace frt::fd {
// newfd now refers to oldfd's description. `fresh`: the kernel handed newfd out (dup,
// F_DUPFD: a new incarnation); otherwise newfd was named by the caller (dup2, dup3: the same
// descriptor, replaced in place).
int duplicated(int oldfd, int newfd, bool fresh, u64 pc) {
    if (fresh && newfd >= 0 && newfd != oldfd) created(newfd, pc);
    DescriptorState* from = newfd != oldfd ? descriptor_state(oldfd) : nullptr;
    DescriptorState* to = newfd >= 0 ? descriptor_state(newfd) : nullptr;
    if (from != nullptr && to != nullptr) {
        u64 d = from->description.load(std::memory_order_relaxed);
        if (d == 0) { // oldfd was its own description: give both a shared one
            d = g_next_description.fetch_add(1, std::memory_order_relaxed);
            from->description.store(d, std::memory_order_relaxed);
        }
        // a socket's duplicate is the same socket (its pairing, its peer address)
        to->peer.store(from->peer.load(std::memory_order_relaxed), std::memory_order_relaxed);
        to->family.store(from->family.load(std::memory_order_relaxed), std::memory_order_relaxed);
        to->resolved.store(from->resolved.load(std::memory_order_relaxed),
                           std::memory_order_relaxed);
        to->role.store(from->role.load(std::memory_order_relaxed), std::memory_order_relaxed);
        to->kind.store(from->kind.load(std::memory_order_relaxed), std::memory_order_relaxed);
        to->access.store(from->access.load(std::memory_order_relaxed), std::memory_order_relaxed);
        to->description.store(d, std::memory_order_relaxed);
    }
    return newfd;
}

// A use of fd (a read of its byte, see the top of this file): dup2/dup3 onto newfd, ...
void descriptor_used(int fd, u64 pc) {
    if (InterceptorScope scope(enter_call(pc)); scope) descriptor_read(scope.thread(), fd, pc);
}
} // namespace frt::fd

FRT_EXPORT int dup(int fd) {
    if (is_own_descriptor(fd)) return refused(EBADF);
    return duplicated(fd, REAL(dup)(fd), true, FRT_CALLER());
}
FRT_EXPORT int dup2(int oldfd, int newfd) {
    if (is_own_descriptor(oldfd)) return refused(EBADF);
    if (!vacate_own_descriptor(newfd)) return refused(EMFILE);
    if (oldfd != newfd) descriptor_used(newfd, FRT_CALLER());
    return duplicated(oldfd, REAL(dup2)(oldfd, newfd), false, FRT_CALLER());
}
FRT_EXPORT int dup3(int oldfd, int newfd, int flags) {
    if (is_own_descriptor(oldfd)) return refused(EBADF);
    if (!vacate_own_descriptor(newfd)) return refused(EMFILE);
    if (oldfd != newfd) descriptor_used(newfd, FRT_CALLER());
    return duplicated(oldfd, REAL(dup3)(oldfd, newfd, flags), false, FRT_CALLER());
}
namespace {
// fcntl and fcntl64: a runtime descriptor is not open for the program; duplicates share the
// description; open file description locks are locks (rt_file_locks.cpp).
int descriptor_control(int fd, int cmd, unsigned long arg, u64 pc, int (*real)(int, int, ...)) {
    if (is_own_descriptor(fd)) return refused(EBADF);
    if (cmd == F_OFD_SETLK || cmd == F_OFD_SETLKW)
        return open_description_lock(fd, cmd, reinterpret_cast<const struct flock*>(arg), pc, real);
    const int r = real(fd, cmd, arg);
    if (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC) duplicated(fd, r, true, pc);
    return r;
}
} // namespace

FRT_EXPORT int fcntl(int fd, int cmd, ...) {
    va_list ap;
    va_start(ap, cmd);
    const unsigned long arg = va_arg(ap, unsigned long); // int, long or pointer: one register
    va_end(ap);
    return descriptor_control(fd, cmd, arg, FRT_CALLER(), REAL(fcntl));
}
// -D_FILE_OFFSET_BITS=64 programs call this name (glibc >= 2.28).
FRT_EXPORT int fcntl64(int fd, int cmd, ...) {
    va_list ap;
    va_start(ap, cmd);
    const unsigned long arg = va_arg(ap, unsigned long);
    va_end(ap);
    return descriptor_control(fd, cmd, arg, FRT_CALLER(), REAL(fcntl64));
}

// _FORTIFY_SOURCE forms (the buffer size known to the compiler is checked by the real ones).
namespace {
using read_chk_fn = ssize_t (*)(int, void*, size_t, size_t);
using pread_chk_fn = ssize_t (*)(int, void*, size_t, off_t, size_t);
using recv_chk_fn = ssize_t (*)(int, void*, size_t, size_t, int);
using recvfrom_chk_fn = ssize_t (*)(int, void*, size_t, size_t, int, struct sockaddr*, socklen_t*);
FRT_DECLARE_REAL_TYPED(__read_chk, read_chk_fn);
FRT_DECLARE_REAL_TYPED(__pread_chk, pread_chk_fn);
FRT_DECLARE_REAL_TYPED(__pread64_chk, pread_chk_fn);
FRT_DECLARE_REAL_TYPED(__recv_chk, recv_chk_fn);
FRT_DECLARE_REAL_TYPED(__recvfrom_chk, recvfrom_chk_fn);
} // namespace

FRT_EXPORT ssize_t __read_chk(int fd, void* buf, size_t n, size_t size) {
    const ssize_t r = REAL(__read_chk)(fd, buf, n, size);
    after_receive(fd, FRT_CALLER(), r);
    received_into(buf, r, FRT_CALLER());
    signals_read(fd, buf, r, FRT_CALLER());
    return r;
}
FRT_EXPORT ssize_t __pread_chk(int fd, void* buf, size_t n, off_t off, size_t size) {
    return read_into(fd, buf, REAL(__pread_chk)(fd, buf, n, off, size), FRT_CALLER());
}
FRT_EXPORT ssize_t __pread64_chk(int fd, void* buf, size_t n, off64_t off, size_t size) {
    return read_into(fd, buf, REAL(__pread64_chk)(fd, buf, n, off, size), FRT_CALLER());
}
FRT_EXPORT ssize_t __recv_chk(int fd, void* buf, size_t n, size_t size, int flags) {
    const ssize_t r = REAL(__recv_chk)(fd, buf, n, size, flags);
    after_receive(fd, FRT_CALLER(), r);
    received_into(buf, r, FRT_CALLER());
    return r;
}
FRT_EXPORT ssize_t __recvfrom_chk(int fd, void* buf, size_t n, size_t size, int flags,
                                  struct sockaddr* from, socklen_t* fromlen) {
    const ssize_t r = REAL(__recvfrom_chk)(fd, buf, n, size, flags, from, fromlen);
    after_receive(fd, FRT_CALLER(), r);
    received_into(buf, r, FRT_CALLER());
    return r;
}

// --- descriptors the kernel hands out --------------------------------------------------------

FRT_EXPORT int open(const char* path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    const mode_t mode = mode_of(flags, ap);
    va_end(ap);
    return file_opened(REAL(open)(path, flags, mode), FRT_CALLER(), flags);
}
FRT_EXPORT int open64(const char* path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    const mode_t mode = mode_of(flags, ap);
    va_end(ap);
    return file_opened(REAL(open64)(path, flags, mode), FRT_CALLER(), flags);
}
FRT_EXPORT int openat(int dir, const char* path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    const mode_t mode = mode_of(flags, ap);
    va_end(ap);
    return file_opened(REAL(openat)(dir, path, flags, mode), FRT_CALLER(), flags);
}
FRT_EXPORT int openat64(int dir, const char* path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    const mode_t mode = mode_of(flags, ap);
    va_end(ap);
    return file_opened(REAL(openat64)(dir, path, flags, mode), FRT_CALLER(), flags);
}
FRT_EXPORT int creat(const char* path, mode_t mode) {
    return file_opened(REAL(creat)(path, mode), FRT_CALLER(), O_WRONLY);
}
FRT_EXPORT int creat64(const char* path, mode_t mode) {
    return file_opened(REAL(creat64)(path, mode), FRT_CALLER(), O_WRONLY);
}
// _FORTIFY_SOURCE's open and openat without a mode (flags not known at compile time).
FRT_EXPORT int __open_2(const char* path, int flags) {
    return file_opened(REAL(__open_2)(path, flags), FRT_CALLER(), flags);
}
FRT_EXPORT int __open64_2(const char* path, int flags) {
    return file_opened(REAL(__open64_2)(path, flags), FRT_CALLER(), flags);
}
FRT_EXPORT int __openat_2(int dir, const char* path, int flags) {
    return file_opened(REAL(__openat_2)(dir, path, flags), FRT_CALLER(), flags);
}
FRT_EXPORT int __openat64_2(int dir, const char* path, int flags) {
    return file_opened(REAL(__openat64_2)(dir, path, flags), FRT_CALLER(), flags);
}
namespace frt::fd {
int queue_opened(int fd, u32 queue, u64 pc) {
    created(fd, pc);
    if (DescriptorState* s = descriptor_state(fd); s != nullptr && queue < kQueues)
        s->description.store(kQueueDescriptions + queue, std::memory_order_relaxed);
    return fd;
}

u32 queue_of(int fd) {
    const DescriptorState* s = descriptor_state(fd);
    if (s == nullptr) return kNoQueue;
    const u64 d = s->description.load(std::memory_order_relaxed);
    return d >= kQueueDescriptions && d < kQueueDescriptions + kQueues
               ? static_cast<u32>(d - kQueueDescriptions)
               : kNoQueue;
}
} // namespace frt::fd

FRT_EXPORT int eventfd(unsigned value, int flags) {
    return created(REAL(eventfd)(value, flags), FRT_CALLER());
}
// Other calls that hand out a descriptor (a new incarnation of its number): a memfd is a
// regular file that /proc/self/fd can open again (its file's description, rt_fd_files.cpp).
FRT_EXPORT int memfd_create(const char* name, unsigned flags) {
    return file_opened(REAL(memfd_create)(name, flags), FRT_CALLER());
}
FRT_EXPORT int open_by_handle_at(int mount, struct file_handle* handle, int flags) {
    return file_opened(REAL(open_by_handle_at)(mount, handle, flags), FRT_CALLER());
}
FRT_EXPORT int inotify_init() {
    return created(REAL(inotify_init)(), FRT_CALLER());
}
FRT_EXPORT int inotify_init1(int flags) {
    return created(REAL(inotify_init1)(flags), FRT_CALLER());
}
FRT_EXPORT int fanotify_init(unsigned flags, unsigned event_flags) {
    return created(REAL(fanotify_init)(flags, event_flags), FRT_CALLER());
}
FRT_EXPORT int pidfd_open(pid_t pid, unsigned flags) {
    return created(REAL(pidfd_open)(pid, flags), FRT_CALLER());
}
FRT_EXPORT int pidfd_getfd(int pidfd, int target, unsigned flags) {
    return created(REAL(pidfd_getfd)(pidfd, target, flags), FRT_CALLER());
}
FRT_EXPORT int posix_openpt(int flags) {
    return created(REAL(posix_openpt)(flags), FRT_CALLER());
}
FRT_EXPORT int getpt() {
    return created(REAL(getpt)(), FRT_CALLER());
}

FRT_EXPORT int signalfd(int fd, const sigset_t* mask, int flags) {
    const u64 pc = FRT_CALLER();
    if (fd >= 0) {
        if (InterceptorScope scope(enter_call(pc)); scope) descriptor_read(scope.thread(), fd, pc);
        return REAL(signalfd)(fd, mask, flags);
    }
    const int r = created(REAL(signalfd)(fd, mask, flags), pc);
    if (DescriptorState* s = descriptor_state(r))
        s->kind.store(kSignalfdKind, std::memory_order_relaxed);
    return r;
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(signalfd)
FRT_INTERCEPTOR_ALIAS(read)
FRT_INTERCEPTOR_ALIAS(pread)
FRT_INTERCEPTOR_ALIAS(pread64)
FRT_INTERCEPTOR_ALIAS(readv)
FRT_INTERCEPTOR_ALIAS(recv)
FRT_INTERCEPTOR_ALIAS(recvfrom)
FRT_INTERCEPTOR_ALIAS(recvmsg)
FRT_INTERCEPTOR_ALIAS(write)
FRT_INTERCEPTOR_ALIAS(pwrite)
FRT_INTERCEPTOR_ALIAS(pwrite64)
FRT_INTERCEPTOR_ALIAS(writev)
FRT_INTERCEPTOR_ALIAS(send)
FRT_INTERCEPTOR_ALIAS(sendto)
FRT_INTERCEPTOR_ALIAS(sendmsg)
FRT_INTERCEPTOR_ALIAS(close)
FRT_INTERCEPTOR_ALIAS(shutdown)
FRT_INTERCEPTOR_ALIAS(close_range)
FRT_INTERCEPTOR_ALIAS(closefrom)
FRT_INTERCEPTOR_ALIAS(pipe)
FRT_INTERCEPTOR_ALIAS(pipe2)
FRT_INTERCEPTOR_ALIAS(socketpair)
FRT_INTERCEPTOR_ALIAS(dup)
FRT_INTERCEPTOR_ALIAS(dup2)
FRT_INTERCEPTOR_ALIAS(dup3)
FRT_INTERCEPTOR_ALIAS(fcntl)
FRT_INTERCEPTOR_ALIAS(fcntl64)
FRT_INTERCEPTOR_ALIAS(open)
FRT_INTERCEPTOR_ALIAS(open64)
FRT_INTERCEPTOR_ALIAS(openat)
FRT_INTERCEPTOR_ALIAS(openat64)
FRT_INTERCEPTOR_ALIAS(creat)
FRT_INTERCEPTOR_ALIAS(creat64)
FRT_INTERCEPTOR_ALIAS(__open_2)
FRT_INTERCEPTOR_ALIAS(__open64_2)
FRT_INTERCEPTOR_ALIAS(__openat_2)
FRT_INTERCEPTOR_ALIAS(__openat64_2)
FRT_INTERCEPTOR_ALIAS(eventfd)
FRT_INTERCEPTOR_ALIAS(memfd_create)
FRT_INTERCEPTOR_ALIAS(open_by_handle_at)
FRT_INTERCEPTOR_ALIAS(inotify_init)
FRT_INTERCEPTOR_ALIAS(inotify_init1)
FRT_INTERCEPTOR_ALIAS(fanotify_init)
FRT_INTERCEPTOR_ALIAS(pidfd_open)
FRT_INTERCEPTOR_ALIAS(pidfd_getfd)
FRT_INTERCEPTOR_ALIAS(posix_openpt)
FRT_INTERCEPTOR_ALIAS(getpt)
FRT_INTERCEPTOR_ALIAS(__read_chk)
FRT_INTERCEPTOR_ALIAS(__pread_chk)
FRT_INTERCEPTOR_ALIAS(__pread64_chk)
FRT_INTERCEPTOR_ALIAS(__recv_chk)
FRT_INTERCEPTOR_ALIAS(__recvfrom_chk)
