// The data transfers through a descriptor that rt_fd.cpp does not cover, with the same model
// (a send releases the description's writer object before the call, a receive that returned
// acquires its writers after it; buffers read and written):
//
//   preadv, preadv2             write the first r bytes of the iovecs (r: the result).
//   pwritev, pwritev2           read all the iovecs' bytes. Their 64 names (preadv64,
//                               preadv64v2, pwritev64, pwritev64v2: -D_FILE_OFFSET_BITS=64
//                               programs call them) the same.
//   recvmmsg                    each message received: its iovecs' first msg_len bytes and
//                               msg_len itself written, its header as recvmsg's.
//   sendmmsg                    each message's iovecs read; msg_len of those sent written.
//   eventfd_read, eventfd_write glibc's wrappers call read(2)/write(2) inside the library, where
//                               the interposed read and write do not see them: a receive that
//                               writes *value / a send, as read and write on an eventfd are.
//   splice, tee, sendfile,      data moved (tee: copied) by the kernel from fd_in to fd_out
//   copy_file_range             without passing through the program's memory: a receive on fd_in
//                               and then a send on fd_out, so that a reader of fd_out is ordered
//                               after the writers of fd_in (a relay thread splicing one pipe into
//                               another hands records on). Both steps are taken before the call
//                               (a reader that gets the data at once is ordered after what the
//                               relay had acquired) and again after it (the writers whose data
//                               the call moved); the offsets they are given are read and written.
//   vmsplice                    on a pipe's write end a send that reads the iovecs, on its read
//                               end a receive that writes the first r bytes of them.
// Only the program's calls, never the runtime's own.
#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "rt_fd.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_system.hpp"

using namespace frt;

namespace {

FRT_DECLARE_REAL(preadv);
FRT_DECLARE_REAL(pwritev);
FRT_DECLARE_REAL(preadv2);
FRT_DECLARE_REAL(pwritev2);
FRT_DECLARE_REAL(preadv64);
FRT_DECLARE_REAL(preadv64v2);
FRT_DECLARE_REAL(pwritev64);
FRT_DECLARE_REAL(pwritev64v2);
FRT_DECLARE_REAL(recvmmsg);
FRT_DECLARE_REAL(sendmmsg);
FRT_DECLARE_REAL(eventfd_read);
FRT_DECLARE_REAL(eventfd_write);
FRT_DECLARE_REAL(splice);
FRT_DECLARE_REAL(tee);
FRT_DECLARE_REAL(vmsplice);
FRT_DECLARE_REAL(sendfile);
FRT_DECLARE_REAL(sendfile64);
FRT_DECLARE_REAL(copy_file_range);

ssize_t received(int fd, const struct iovec* iov, int n, ssize_t r, u64 pc) {
    fd::after_receive(fd, pc, r);
    if (r > 0) fd::iov_access(iov, n, static_cast<u64>(r), true, pc);
    return r;
}
void sending(int fd, const struct iovec* iov, int n, u64 pc) {
    fd::iov_access(iov, n, fd::iov_bytes(iov, n), false, pc);
    fd::before_send(fd, pc, nullptr, 0);
}
void message_length_written(const unsigned* len, u64 pc) {
    if (InterceptorScope scope(enter_call(pc)); scope)
        library_access(scope.thread(), pc, len, sizeof *len, true);
}

// A kernel-side copy from in to out (splice & co.): the receive on in, then the send on out.
void relayed(int in, int out, u64 pc) {
    fd::after_receive(in, pc, 1); // data (0 would be end of file)
    fd::before_send(out, pc, nullptr, 0);
}
// The offset a kernel-side copy reads and advances (null: the descriptor's own position).
template <class Offset> void offset_used(const Offset* off, u64 pc) {
    if (off == nullptr) return;
    if (InterceptorScope scope(enter_call(pc)); scope)
        library_access(scope.thread(), pc, off, sizeof *off, true);
}
template <class Call> auto relay(int in, int out, u64 pc, Call call) {
    relayed(in, out, pc);
    const auto r = call();
    if (r > 0) relayed(in, out, pc);
    return r;
}

} // namespace

FRT_EXPORT ssize_t preadv(int fd, const struct iovec* iov, int n, off_t off) {
    return received(fd, iov, n, REAL(preadv)(fd, iov, n, off), FRT_CALLER());
}
FRT_EXPORT ssize_t preadv2(int fd, const struct iovec* iov, int n, off_t off, int flags) {
    return received(fd, iov, n, REAL(preadv2)(fd, iov, n, off, flags), FRT_CALLER());
}
FRT_EXPORT ssize_t pwritev(int fd, const struct iovec* iov, int n, off_t off) {
    sending(fd, iov, n, FRT_CALLER());
    return REAL(pwritev)(fd, iov, n, off);
}
FRT_EXPORT ssize_t pwritev2(int fd, const struct iovec* iov, int n, off_t off, int flags) {
    sending(fd, iov, n, FRT_CALLER());
    return REAL(pwritev2)(fd, iov, n, off, flags);
}
// -D_FILE_OFFSET_BITS=64 programs call the 64 names (other symbols of the same functions).
FRT_EXPORT ssize_t preadv64(int fd, const struct iovec* iov, int n, off64_t off) {
    return received(fd, iov, n, REAL(preadv64)(fd, iov, n, off), FRT_CALLER());
}
FRT_EXPORT ssize_t preadv64v2(int fd, const struct iovec* iov, int n, off64_t off, int flags) {
    return received(fd, iov, n, REAL(preadv64v2)(fd, iov, n, off, flags), FRT_CALLER());
}
FRT_EXPORT ssize_t pwritev64(int fd, const struct iovec* iov, int n, off64_t off) {
    sending(fd, iov, n, FRT_CALLER());
    return REAL(pwritev64)(fd, iov, n, off);
}
FRT_EXPORT ssize_t pwritev64v2(int fd, const struct iovec* iov, int n, off64_t off, int flags) {
    sending(fd, iov, n, FRT_CALLER());
    return REAL(pwritev64v2)(fd, iov, n, off, flags);
}
FRT_EXPORT int recvmmsg(int fd, struct mmsghdr* msgs, unsigned n, int flags,
                        struct timespec* timeout) {
    const u64 pc = FRT_CALLER();
    const int r = REAL(recvmmsg)(fd, msgs, n, flags, timeout);
    fd::after_receive(fd, pc, r > 0 ? r : -1);
    for (int i = 0; i < r; ++i) {
        const struct msghdr& m = msgs[i].msg_hdr;
        fd::iov_access(m.msg_iov, static_cast<int>(m.msg_iovlen), msgs[i].msg_len, true, pc);
        message_length_written(&msgs[i].msg_len, pc);
        fd::message_header_received(&m, pc);
    }
    return r;
}
FRT_EXPORT int sendmmsg(int fd, struct mmsghdr* msgs, unsigned n, int flags) {
    const u64 pc = FRT_CALLER();
    for (unsigned i = 0; i < n; ++i) {
        const struct msghdr& m = msgs[i].msg_hdr;
        fd::iov_access(m.msg_iov, static_cast<int>(m.msg_iovlen),
                       fd::iov_bytes(m.msg_iov, static_cast<int>(m.msg_iovlen)), false, pc);
    }
    fd::before_send(fd, pc, nullptr, 0);
    const int r = REAL(sendmmsg)(fd, msgs, n, flags);
    for (int i = 0; i < r; ++i)
        message_length_written(&msgs[i].msg_len, pc);
    return r;
}
FRT_EXPORT int eventfd_read(int fd, eventfd_t* value) {
    const int r = REAL(eventfd_read)(fd, value);
    fd::after_receive(fd, FRT_CALLER(), r == 0 ? static_cast<ssize_t>(sizeof *value) : -1);
    if (r == 0) fd::received_into(value, sizeof *value, FRT_CALLER());
    return r;
}
FRT_EXPORT int eventfd_write(int fd, eventfd_t value) {
    fd::before_send(fd, FRT_CALLER(), nullptr, 0);
    return REAL(eventfd_write)(fd, value);
}

FRT_EXPORT ssize_t splice(int in, loff_t* off_in, int out, loff_t* off_out, size_t len,
                          unsigned flags) {
    const u64 pc = FRT_CALLER();
    offset_used(off_in, pc);
    offset_used(off_out, pc);
    return relay(in, out, pc, [&] { return REAL(splice)(in, off_in, out, off_out, len, flags); });
}
FRT_EXPORT ssize_t tee(int in, int out, size_t len, unsigned flags) {
    return relay(in, out, FRT_CALLER(), [&] { return REAL(tee)(in, out, len, flags); });
}
FRT_EXPORT ssize_t sendfile(int out, int in, off_t* offset, size_t count) {
    const u64 pc = FRT_CALLER();
    offset_used(offset, pc);
    return relay(in, out, pc, [&] { return REAL(sendfile)(out, in, offset, count); });
}
FRT_EXPORT ssize_t sendfile64(int out, int in, off64_t* offset, size_t count) {
    const u64 pc = FRT_CALLER();
    offset_used(offset, pc);
    return relay(in, out, pc, [&] { return REAL(sendfile64)(out, in, offset, count); });
}
FRT_EXPORT ssize_t copy_file_range(int in, loff_t* off_in, int out, loff_t* off_out, size_t len,
                                   unsigned flags) {
    const u64 pc = FRT_CALLER();
    offset_used(off_in, pc);
    offset_used(off_out, pc);
    return relay(in, out, pc,
                 [&] { return REAL(copy_file_range)(in, off_in, out, off_out, len, flags); });
}
FRT_EXPORT ssize_t vmsplice(int fd, const struct iovec* iov, size_t n, unsigned flags) {
    const u64 pc = FRT_CALLER();
    const int count = static_cast<int>(n);
    // The direction is the pipe end's (the runtime's own fcntl call, not the program's).
    const long mode = system_call(SYS_fcntl, fd, F_GETFL);
    if (mode >= 0 && (mode & O_ACCMODE) == O_RDONLY)
        return received(fd, iov, count, REAL(vmsplice)(fd, iov, n, flags), pc);
    sending(fd, iov, count, pc);
    return REAL(vmsplice)(fd, iov, n, flags);
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(preadv)
FRT_INTERCEPTOR_ALIAS(preadv2)
FRT_INTERCEPTOR_ALIAS(pwritev)
FRT_INTERCEPTOR_ALIAS(pwritev2)
FRT_INTERCEPTOR_ALIAS(preadv64)
FRT_INTERCEPTOR_ALIAS(preadv64v2)
FRT_INTERCEPTOR_ALIAS(pwritev64)
FRT_INTERCEPTOR_ALIAS(pwritev64v2)
FRT_INTERCEPTOR_ALIAS(recvmmsg)
FRT_INTERCEPTOR_ALIAS(sendmmsg)
FRT_INTERCEPTOR_ALIAS(eventfd_read)
FRT_INTERCEPTOR_ALIAS(eventfd_write)
FRT_INTERCEPTOR_ALIAS(splice)
FRT_INTERCEPTOR_ALIAS(tee)
FRT_INTERCEPTOR_ALIAS(sendfile)
FRT_INTERCEPTOR_ALIAS(sendfile64)
FRT_INTERCEPTOR_ALIAS(copy_file_range)
FRT_INTERCEPTOR_ALIAS(vmsplice)
