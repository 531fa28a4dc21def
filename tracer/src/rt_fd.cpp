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
//                                sockets from socket(), accept() and accept4() all share one
//                                description (the runtime cannot tell which socket is
//                                connected to which: ThreadSanitizer's global socket object);
//                                a POSIX message queue's descriptors (rt_mq.cpp: a queue
//                                descriptor is a file descriptor on Linux) all share the
//                                queue's description, whatever mq_open made them, and keep
//                                one writer set per message priority: mq_send is a send on
//                                its priority's set, mq_receive acquires only the set of the
//                                priority of the message it got (that message was sent with
//                                it; a send of another priority cannot have been received);
//                                any other descriptor is its own.
//   connections                  connect() is a Release before the call, accept() returning a
//                                socket an Acquire after it, on one object for all sockets:
//                                what a client did before connecting happened before the
//                                server's accept returned.
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
// Descriptors up to kMaxFd are modelled; larger ones only get the buffer accesses.
#include <fcntl.h>
#include <stdarg.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "rt_fd.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_signals.hpp"

using namespace frt;
namespace fmt = firstrace::format;

namespace {
constexpr int kMaxFd = 4096;
constexpr u32 kIncarnations = 256;      // bytes per descriptor: incarnations wrap around after this
std::atomic<u64> g_description[kMaxFd]; // 0: the descriptor is its own description
std::atomic<u32> g_incarnation[kMaxFd];
std::atomic<bool> g_signalfd[kMaxFd]; // the current incarnation is a signalfd
constexpr u64 kSocketDescription = 1; // every socket but socketpair()'s ends
std::atomic<u64> g_next_description{kSocketDescription + 1};
// Message queue i's description is kQueueDescriptions + i (the counter above never gets there).
constexpr u64 kQueueDescriptions = u64{1} << 40;
constexpr u64 kQueues = u64{1} << 20;
constexpr u32 kPriorities = 1u << 15; // MQ_PRIO_MAX on Linux
unsigned char g_connections;          // the object connect() releases and accept() acquires
} // namespace

// One byte per (descriptor, incarnation), named in reports through the runtime's symbols.
extern "C" {
__attribute__((
    visibility("default"))) unsigned char firstrace_file_descriptors[kMaxFd * kIncarnations];
}

namespace {

bool modelled(int fd) {
    return fd >= 0 && fd < kMaxFd;
}

const void* descriptor_byte(int fd) {
    const u32 inc = g_incarnation[fd].load(std::memory_order_relaxed) % kIncarnations;
    return &firstrace_file_descriptors[static_cast<u64>(fd) * kIncarnations + inc];
}

// fd's open file description (a key), and the writers it has seen (bit = pid mod 64). A message
// queue's key is that of the writers of `priority`: with the writer's bit below it (the
// writer_object() shift) it is above every address of user space and every other key.
u64 description(int fd, u32 priority = 0) {
    const u64 d = g_description[fd].load(std::memory_order_relaxed);
    if (d >= kQueueDescriptions && d < kQueueDescriptions + kQueues)
        return u64{1} << 57 | ((d - kQueueDescriptions) * kPriorities + priority % kPriorities);
    return d != 0 ? d << 13 : static_cast<u64>(fd) + 1;
}
constexpr u32 kWriterSets = 4096;
std::atomic<u64> g_writers[kWriterSets];
std::atomic<u64>& writers(u64 desc) {
    return g_writers[(desc * 0x9E3779B97F4A7C15ull) >> 52];
}
const void* writer_object(u64 desc, u32 bit) {
    return reinterpret_cast<const void*>(desc << 6 | bit);
}

void new_description(int fd, u64 d) {
    if (modelled(fd)) g_description[fd].store(d, std::memory_order_relaxed);
}

// A use of fd (read of its byte); `transfer`: +1 data goes out (Release before), -1 data came
// in (Acquire after).
void used(ThreadState* t, int fd, u64 pc) {
    if (modelled(fd)) library_access(t, pc, descriptor_byte(fd), 1, false);
}

} // namespace

namespace frt::fd {

void before_send(int fd, u64 pc, const void* buf, u64 n, u32 priority) {
    InterceptorScope scope(enter_call(pc));
    if (!scope) return;
    ThreadState* t = scope.thread();
    used(t, fd, pc);
    library_access(t, pc, buf, n, false);
    if (modelled(fd)) {
        const u64 desc = description(fd, priority);
        const u32 bit = t->pid % 64;
        writers(desc).fetch_or(1ull << bit, std::memory_order_relaxed);
        release_now(t, fmt::kObjFile, writer_object(desc, bit), pc, false);
    }
}

} // namespace frt::fd

namespace {
// The Acquire of every writer object of fd's description seen so far.
void acquire_writers(ThreadState* t, int fd, u64 pc, u32 priority = 0) {
    if (!modelled(fd)) return;
    const u64 desc = description(fd, priority);
    u64 set = writers(desc).load(std::memory_order_relaxed);
    while (set != 0) {
        const u32 bit = static_cast<u32>(__builtin_ctzll(set));
        set &= set - 1;
        if (find_object(fmt::kObjFile, writer_object(desc, bit)) != nullptr)
            acquire_now(t, fmt::kObjFile, writer_object(desc, bit), pc);
    }
}
} // namespace

namespace frt::fd {

void after_receive(int fd, u64 pc, ssize_t r, u32 priority) {
    InterceptorScope scope(enter_call(pc));
    if (!scope) return;
    ThreadState* t = scope.thread();
    used(t, fd, pc);
    if (r >= 0) acquire_writers(t, fd, pc, priority);
}

void readiness_reported(int fd, u64 pc) {
    if (InterceptorScope scope(enter_call(pc)); scope) acquire_writers(scope.thread(), fd, pc);
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
// the byte kIncarnations later.
void retired(int fd, u64 pc) {
    if (!modelled(fd)) return;
    if (InterceptorScope scope(enter_call(pc)); scope) {
        library_access(scope.thread(), pc, descriptor_byte(fd), 1, true);
        release_now(scope.thread(), fmt::kObjFile, descriptor_byte(fd), pc, false);
    }
    g_description[fd].store(0, std::memory_order_relaxed);
    g_signalfd[fd].store(false, std::memory_order_relaxed);
}

// The kernel handed out fd: a new incarnation of the number, its own description. Incarnations
// share a byte kIncarnations apart: when this one takes over a byte, it acquires the close
// that retired the byte's last incarnation (the kernel handed the number out after that
// close), so that the two incarnations' uses and closes are not taken for a race. Only then:
// ordering every open after the close of the number's previous incarnation would hide races
// between threads that reuse a number by chance (drd's concurrent_close: 256 threads opening
// and closing /dev/null, all on descriptor 3, raced with the closes 64 incarnations earlier).
int created(int fd, u64 pc) {
    if (modelled(fd)) {
        const u32 inc = g_incarnation[fd].fetch_add(1, std::memory_order_relaxed) + 1;
        g_description[fd].store(0, std::memory_order_relaxed);
        g_signalfd[fd].store(false, std::memory_order_relaxed);
        if (inc >= kIncarnations) {
            if (InterceptorScope scope(enter_call(pc)); scope) {
                if (find_object(fmt::kObjFile, descriptor_byte(fd)) != nullptr)
                    acquire_now(scope.thread(), fmt::kObjFile, descriptor_byte(fd), pc);
            }
        }
    }
    return fd;
}

// A read of fd returned r bytes at buf: when fd is a signalfd, the signals it accepted.
void signals_read(int fd, const void* buf, ssize_t r, u64 pc) {
    if (r <= 0 || !modelled(fd) || !g_signalfd[fd].load(std::memory_order_relaxed)) return;
    const auto* info = static_cast<const struct signalfd_siginfo*>(buf);
    for (ssize_t i = 0; i < r / static_cast<ssize_t>(sizeof *info); ++i)
        signal_accepted(static_cast<int>(info[i].ssi_signo), pc);
}

} // namespace frt::fd

using namespace frt::fd;

namespace {

FRT_DECLARE_REAL(read);
FRT_DECLARE_REAL(write);
FRT_DECLARE_REAL(pread);
FRT_DECLARE_REAL(pwrite);
FRT_DECLARE_REAL(readv);
FRT_DECLARE_REAL(writev);
FRT_DECLARE_REAL(recv);
FRT_DECLARE_REAL(recvfrom);
FRT_DECLARE_REAL(recvmsg);
FRT_DECLARE_REAL(send);
FRT_DECLARE_REAL(sendto);
FRT_DECLARE_REAL(sendmsg);
FRT_DECLARE_REAL(close);
FRT_DECLARE_REAL(dup);
FRT_DECLARE_REAL(dup2);
FRT_DECLARE_REAL(dup3);
FRT_DECLARE_REAL(pipe);
FRT_DECLARE_REAL(pipe2);
FRT_DECLARE_REAL(socketpair);
FRT_DECLARE_REAL(fcntl);
FRT_DECLARE_REAL(socket);
FRT_DECLARE_REAL(connect);
FRT_DECLARE_REAL(accept);
FRT_DECLARE_REAL(accept4);
FRT_DECLARE_REAL(eventfd);
FRT_DECLARE_REAL(signalfd);
using open_fn = int (*)(const char*, int, ...);
using openat_fn = int (*)(int, const char*, int, ...);
FRT_DECLARE_REAL_TYPED(open, open_fn);
FRT_DECLARE_REAL_TYPED(open64, open_fn);
FRT_DECLARE_REAL_TYPED(openat, openat_fn);
FRT_DECLARE_REAL(creat);

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
FRT_EXPORT ssize_t pread(int fd, void* buf, size_t n, off_t off) {
    const ssize_t r = REAL(pread)(fd, buf, n, off);
    after_receive(fd, FRT_CALLER(), r);
    received_into(buf, r, FRT_CALLER());
    return r;
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
    before_send(fd, FRT_CALLER(), buf, n);
    return REAL(sendto)(fd, buf, n, flags, to, tolen);
}
FRT_EXPORT ssize_t sendmsg(int fd, const struct msghdr* msg, int flags) {
    iov_access(msg->msg_iov, static_cast<int>(msg->msg_iovlen),
               iov_bytes(msg->msg_iov, static_cast<int>(msg->msg_iovlen)), false, FRT_CALLER());
    before_send(fd, FRT_CALLER(), nullptr, 0);
    return REAL(sendmsg)(fd, msg, flags);
}

FRT_EXPORT int close(int fd) {
    retired(fd, FRT_CALLER());
    return REAL(close)(fd);
}

// pipe, pipe2, socketpair: two new descriptors of one description (a write to one is read at
// the other).
int frt::fd::pipe_created(int r, const int fds[2], u64 pc) {
    if (r == 0) {
        created(fds[0], pc);
        created(fds[1], pc);
        const u64 d = g_next_description.fetch_add(1, std::memory_order_relaxed);
        new_description(fds[0], d);
        new_description(fds[1], d);
    }
    return r;
}

FRT_EXPORT int pipe(int fds[2]) {
    return pipe_created(REAL(pipe)(fds), fds, FRT_CALLER());
}
FRT_EXPORT int pipe2(int fds[2], int flags) {
    return pipe_created(REAL(pipe2)(fds, flags), fds, FRT_CALLER());
}
FRT_EXPORT int socketpair(int domain, int type, int protocol, int fds[2]) {
    return pipe_created(REAL(socketpair)(domain, type, protocol, fds), fds, FRT_CALLER());
}

namespace frt::fd {
// newfd now refers to oldfd's description. `fresh`: the kernel handed newfd out (dup,
// F_DUPFD: a new incarnation); otherwise newfd was named by the caller (dup2, dup3: the same
// descriptor, replaced in place).
int duplicated(int oldfd, int newfd, bool fresh, u64 pc) {
    if (fresh && newfd >= 0 && newfd != oldfd) created(newfd, pc);
    if (newfd >= 0 && newfd != oldfd && modelled(oldfd) && modelled(newfd)) {
        u64 d = g_description[oldfd].load(std::memory_order_relaxed);
        if (d == 0) { // oldfd was its own description: give both a shared one
            d = g_next_description.fetch_add(1, std::memory_order_relaxed);
            g_description[oldfd].store(d, std::memory_order_relaxed);
        }
        g_description[newfd].store(d, std::memory_order_relaxed);
    }
    return newfd;
}

// A use of fd (a read of its byte, see the top of this file): dup2/dup3 onto newfd, ...
void descriptor_used(int fd, u64 pc) {
    if (InterceptorScope scope(enter_call(pc)); scope) used(scope.thread(), fd, pc);
}
} // namespace frt::fd

FRT_EXPORT int dup(int fd) {
    return duplicated(fd, REAL(dup)(fd), true, FRT_CALLER());
}
FRT_EXPORT int dup2(int oldfd, int newfd) {
    if (oldfd != newfd) descriptor_used(newfd, FRT_CALLER());
    return duplicated(oldfd, REAL(dup2)(oldfd, newfd), false, FRT_CALLER());
}
FRT_EXPORT int dup3(int oldfd, int newfd, int flags) {
    if (oldfd != newfd) descriptor_used(newfd, FRT_CALLER());
    return duplicated(oldfd, REAL(dup3)(oldfd, newfd, flags), false, FRT_CALLER());
}
FRT_EXPORT int fcntl(int fd, int cmd, ...) {
    va_list ap;
    va_start(ap, cmd);
    const unsigned long arg = va_arg(ap, unsigned long); // int, long or pointer: one register
    va_end(ap);
    const int r = REAL(fcntl)(fd, cmd, arg);
    if (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC) duplicated(fd, r, true, FRT_CALLER());
    return r;
}

// _FORTIFY_SOURCE forms (the buffer size known to the compiler is checked by the real ones).
namespace {
using read_chk_fn = ssize_t (*)(int, void*, size_t, size_t);
using pread_chk_fn = ssize_t (*)(int, void*, size_t, off_t, size_t);
using recv_chk_fn = ssize_t (*)(int, void*, size_t, size_t, int);
using recvfrom_chk_fn = ssize_t (*)(int, void*, size_t, size_t, int, struct sockaddr*, socklen_t*);
FRT_DECLARE_REAL_TYPED(__read_chk, read_chk_fn);
FRT_DECLARE_REAL_TYPED(__pread_chk, pread_chk_fn);
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
    const ssize_t r = REAL(__pread_chk)(fd, buf, n, off, size);
    after_receive(fd, FRT_CALLER(), r);
    received_into(buf, r, FRT_CALLER());
    return r;
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
    return created(REAL(open)(path, flags, mode), FRT_CALLER());
}
FRT_EXPORT int open64(const char* path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    const mode_t mode = mode_of(flags, ap);
    va_end(ap);
    return created(REAL(open64)(path, flags, mode), FRT_CALLER());
}
FRT_EXPORT int openat(int dir, const char* path, int flags, ...) {
    va_list ap;
    va_start(ap, flags);
    const mode_t mode = mode_of(flags, ap);
    va_end(ap);
    return created(REAL(openat)(dir, path, flags, mode), FRT_CALLER());
}
FRT_EXPORT int creat(const char* path, mode_t mode) {
    return created(REAL(creat)(path, mode), FRT_CALLER());
}
namespace frt::fd {
// A socket: a new incarnation of its number, in the one description of all sockets.
int socket_created(int fd, u64 pc) {
    created(fd, pc);
    new_description(fd, kSocketDescription);
    return fd;
}

int queue_opened(int fd, u32 queue, u64 pc) {
    created(fd, pc);
    if (queue < kQueues) new_description(fd, kQueueDescriptions + queue);
    return fd;
}

u32 queue_of(int fd) {
    if (!modelled(fd)) return kNoQueue;
    const u64 d = g_description[fd].load(std::memory_order_relaxed);
    return d >= kQueueDescriptions && d < kQueueDescriptions + kQueues
               ? static_cast<u32>(d - kQueueDescriptions)
               : kNoQueue;
}
// accept, accept4 returned a connection: ordered after every connect() before it.
int accepted(int fd, u64 pc) {
    if (fd < 0) return fd;
    if (InterceptorScope scope(enter_call(pc)); scope) {
        if (find_object(fmt::kObjFile, &g_connections) != nullptr)
            acquire_now(scope.thread(), fmt::kObjFile, &g_connections, pc);
    }
    return socket_created(fd, pc);
}

void connecting(int fd, u64 pc) {
    if (InterceptorScope scope(enter_call(pc)); scope) {
        used(scope.thread(), fd, pc);
        release_now(scope.thread(), fmt::kObjFile, &g_connections, pc, true);
    }
}
} // namespace frt::fd

FRT_EXPORT int socket(int domain, int type, int protocol) {
    return socket_created(REAL(socket)(domain, type, protocol), FRT_CALLER());
}
FRT_EXPORT int connect(int fd, const struct sockaddr* addr, socklen_t len) {
    connecting(fd, FRT_CALLER());
    return REAL(connect)(fd, addr, len);
}
FRT_EXPORT int accept(int fd, struct sockaddr* addr, socklen_t* len) {
    const u64 pc = FRT_CALLER();
    const int r = REAL(accept)(fd, addr, len);
    return accepted(r, pc);
}
FRT_EXPORT int accept4(int fd, struct sockaddr* addr, socklen_t* len, int flags) {
    const u64 pc = FRT_CALLER();
    const int r = REAL(accept4)(fd, addr, len, flags);
    return accepted(r, pc);
}
FRT_EXPORT int eventfd(unsigned value, int flags) {
    return created(REAL(eventfd)(value, flags), FRT_CALLER());
}

FRT_EXPORT int signalfd(int fd, const sigset_t* mask, int flags) {
    const u64 pc = FRT_CALLER();
    if (fd >= 0) {
        if (InterceptorScope scope(enter_call(pc)); scope) used(scope.thread(), fd, pc);
        return REAL(signalfd)(fd, mask, flags);
    }
    const int r = created(REAL(signalfd)(fd, mask, flags), pc);
    if (modelled(r)) g_signalfd[r].store(true, std::memory_order_relaxed);
    return r;
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(signalfd)
FRT_INTERCEPTOR_ALIAS(read)
FRT_INTERCEPTOR_ALIAS(pread)
FRT_INTERCEPTOR_ALIAS(readv)
FRT_INTERCEPTOR_ALIAS(recv)
FRT_INTERCEPTOR_ALIAS(recvfrom)
FRT_INTERCEPTOR_ALIAS(recvmsg)
FRT_INTERCEPTOR_ALIAS(write)
FRT_INTERCEPTOR_ALIAS(pwrite)
FRT_INTERCEPTOR_ALIAS(writev)
FRT_INTERCEPTOR_ALIAS(send)
FRT_INTERCEPTOR_ALIAS(sendto)
FRT_INTERCEPTOR_ALIAS(sendmsg)
FRT_INTERCEPTOR_ALIAS(close)
FRT_INTERCEPTOR_ALIAS(pipe)
FRT_INTERCEPTOR_ALIAS(pipe2)
FRT_INTERCEPTOR_ALIAS(socketpair)
FRT_INTERCEPTOR_ALIAS(dup)
FRT_INTERCEPTOR_ALIAS(dup2)
FRT_INTERCEPTOR_ALIAS(dup3)
FRT_INTERCEPTOR_ALIAS(fcntl)
FRT_INTERCEPTOR_ALIAS(open)
FRT_INTERCEPTOR_ALIAS(open64)
FRT_INTERCEPTOR_ALIAS(openat)
FRT_INTERCEPTOR_ALIAS(creat)
FRT_INTERCEPTOR_ALIAS(socket)
FRT_INTERCEPTOR_ALIAS(connect)
FRT_INTERCEPTOR_ALIAS(accept)
FRT_INTERCEPTOR_ALIAS(accept4)
FRT_INTERCEPTOR_ALIAS(eventfd)
FRT_INTERCEPTOR_ALIAS(__read_chk)
FRT_INTERCEPTOR_ALIAS(__pread_chk)
FRT_INTERCEPTOR_ALIAS(__recv_chk)
FRT_INTERCEPTOR_ALIAS(__recvfrom_chk)
