// The data transfers through a descriptor that rt_fd.cpp does not cover, with the same model
// (a send releases the description's writer object before the call, a receive that returned
// acquires its writers after it; buffers read and written):
//
//   preadv, preadv2             write the first r bytes of the iovecs (r: the result).
//   pwritev, pwritev2           read all the iovecs' bytes.
//   recvmmsg                    each message received: its iovecs' first msg_len bytes and
//                               msg_len itself written.
//   sendmmsg                    each message's iovecs read; msg_len of those sent written.
//   eventfd_read, eventfd_write glibc's wrappers call read(2)/write(2) inside the library, where
//                               the interposed read and write do not see them: a receive that
//                               writes *value / a send, as read and write on an eventfd are.
// Only the program's calls, never the runtime's own.
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "rt_fd.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"

using namespace frt;

namespace {

FRT_DECLARE_REAL(preadv);
FRT_DECLARE_REAL(pwritev);
FRT_DECLARE_REAL(preadv2);
FRT_DECLARE_REAL(pwritev2);
FRT_DECLARE_REAL(recvmmsg);
FRT_DECLARE_REAL(sendmmsg);
FRT_DECLARE_REAL(eventfd_read);
FRT_DECLARE_REAL(eventfd_write);

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
FRT_EXPORT int recvmmsg(int fd, struct mmsghdr* msgs, unsigned n, int flags,
                        struct timespec* timeout) {
    const u64 pc = FRT_CALLER();
    const int r = REAL(recvmmsg)(fd, msgs, n, flags, timeout);
    fd::after_receive(fd, pc, r > 0 ? 0 : -1);
    for (int i = 0; i < r; ++i) {
        const struct msghdr& m = msgs[i].msg_hdr;
        fd::iov_access(m.msg_iov, static_cast<int>(m.msg_iovlen), msgs[i].msg_len, true, pc);
        message_length_written(&msgs[i].msg_len, pc);
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
    fd::after_receive(fd, FRT_CALLER(), r == 0 ? 0 : -1);
    if (r == 0) fd::received_into(value, sizeof *value, FRT_CALLER());
    return r;
}
FRT_EXPORT int eventfd_write(int fd, eventfd_t value) {
    fd::before_send(fd, FRT_CALLER(), nullptr, 0);
    return REAL(eventfd_write)(fd, value);
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(preadv)
FRT_INTERCEPTOR_ALIAS(preadv2)
FRT_INTERCEPTOR_ALIAS(pwritev)
FRT_INTERCEPTOR_ALIAS(pwritev2)
FRT_INTERCEPTOR_ALIAS(recvmmsg)
FRT_INTERCEPTOR_ALIAS(sendmmsg)
FRT_INTERCEPTOR_ALIAS(eventfd_read)
FRT_INTERCEPTOR_ALIAS(eventfd_write)
