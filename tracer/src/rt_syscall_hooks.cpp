// The system call hooks of <sanitizer/linux_syscall_hooks.h>: a program that makes a system
// call itself (syscall(SYS_read, ...), inline assembly) announces it with
// __sanitizer_syscall_pre_<name>(args) before and __sanitizer_syscall_post_<name>(res, args)
// after, and the header's macros call the __sanitizer_syscall_{pre,post}_impl_<name> functions
// defined here. Such a call bypasses every interceptor, so its hooks take the steps the libc
// interceptor of the same call would:
//
//   read, pread64, readv, preadv, recv, recvfrom, recvmsg   after: the use of fd, the Acquire of
//                            its description's writers (rt_fd.cpp), the writes of the bytes
//                            received (res of them, as the kernel reports)
//   write, pwrite64, writev, pwritev, send, sendto, sendmsg  before: the use of fd, the reads of
//                            the bytes given, the Release of this writer's object
//   close                    before: the write of fd's byte (close racing with a use)
//   pipe, pipe2, socketpair  after: two new descriptors of one description
//   dup, dup2, dup3          the duplicate shares the description (dup2/dup3: a use of newfd)
//   open, openat, creat, eventfd, eventfd2, socket, accept, accept4, connect   as their
//                            interceptors: a new incarnation of the number; connect/accept order
//   fork                     after, in the child: what glibc's atfork child handler does (the
//                            child continues in a trace of its own, rt_process.cpp), since the
//                            raw system call runs no atfork handler
//   futex                    as the program's syscall(SYS_futex, ...) (rt_futex.cpp): the
//                            Releases of wakes and requeues before, the Acquires of woken waits
//                            and taken PI locks after (the hooks of LLVM 15 and later headers)
//
// Every other hook of the header (rt_syscall_hooks_unmodelled.inc) is defined too, so that such
// a program links, and does nothing: the memory its system call reads or writes is not
// recorded (tracer/README.md, "Not modelled"). The hooks never change what the call does.
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "rt_fd.hpp"
#include "rt_own_descriptors.hpp"
#include "rt_record.hpp"
#include "rt_socket.hpp"
#include "rt_syscall.hpp"

using namespace frt;
using namespace frt::fd;

namespace {
int as_fd(long v) {
    return static_cast<int>(v);
}
template <class T> T* as_ptr(long v) {
    return reinterpret_cast<T*>(v);
}
} // namespace

#define FRT_HOOK_PRE(name) FRT_EXPORT void __sanitizer_syscall_pre_impl_##name
#define FRT_HOOK_POST(name) FRT_EXPORT void __sanitizer_syscall_post_impl_##name

#define FRT_LONGS_0
#define FRT_LONGS_1 long
#define FRT_LONGS_2 long, long
#define FRT_LONGS_3 long, long, long
#define FRT_LONGS_4 long, long, long, long
#define FRT_LONGS_5 long, long, long, long, long
#define FRT_LONGS_6 long, long, long, long, long, long
#define FRT_LONGS_7 long, long, long, long, long, long, long
#define FRT_POST_LONGS_0 FRT_LONGS_1
#define FRT_POST_LONGS_1 FRT_LONGS_2
#define FRT_POST_LONGS_2 FRT_LONGS_3
#define FRT_POST_LONGS_3 FRT_LONGS_4
#define FRT_POST_LONGS_4 FRT_LONGS_5
#define FRT_POST_LONGS_5 FRT_LONGS_6
#define FRT_POST_LONGS_6 FRT_LONGS_7

// The modelled hooks' signatures, from their list (rt_syscall_hooks_modelled.inc, from which,
// with rt_syscall_hooks_unmodelled.inc, the build writes the <sanitizer/linux_syscall_hooks.h>
// that firstrace-cc gives compilers without one): a definition below that takes another number
// of arguments than its line says conflicts with this declaration.
#define FRT_SYSCALL_HOOK(name, n)                                                                  \
    extern "C" void __sanitizer_syscall_pre_impl_##name(FRT_LONGS_##n);                            \
    extern "C" void __sanitizer_syscall_post_impl_##name(FRT_POST_LONGS_##n);
#include "rt_syscall_hooks_modelled.inc"
#undef FRT_SYSCALL_HOOK

// --- data in ----------------------------------------------------------------------------------

namespace {
void hook_received(long res, long fd, long buf, u64 pc) {
    after_receive(as_fd(fd), pc, res);
    received_into(as_ptr<void>(buf), res, pc);
}
void hook_received_iov(long res, long fd, long vec, long vlen, u64 pc) {
    after_receive(as_fd(fd), pc, res);
    if (res > 0)
        iov_access(as_ptr<const iovec>(vec), static_cast<int>(vlen), static_cast<u64>(res), true,
                   pc);
}
void hook_sent(long fd, long buf, long count, u64 pc) {
    before_send(as_fd(fd), pc, as_ptr<const void>(buf), static_cast<u64>(count));
}
void hook_sent_iov(long fd, long vec, long vlen, u64 pc) {
    const auto* iov = as_ptr<const iovec>(vec);
    const int n = static_cast<int>(vlen);
    iov_access(iov, n, iov_bytes(iov, n), false, pc);
    before_send(as_fd(fd), pc, nullptr, 0);
}
} // namespace

FRT_HOOK_PRE(read)(long, long, long) {}
FRT_HOOK_POST(read)(long res, long fd, long buf, long) {
    hook_received(res, fd, buf, FRT_CALLER());
}
FRT_HOOK_PRE(pread64)(long, long, long, long) {}
FRT_HOOK_POST(pread64)(long res, long fd, long buf, long, long) {
    hook_received(res, fd, buf, FRT_CALLER());
}
FRT_HOOK_PRE(recv)(long, long, long, long) {}
FRT_HOOK_POST(recv)(long res, long fd, long buf, long, long) {
    hook_received(res, fd, buf, FRT_CALLER());
}
FRT_HOOK_PRE(recvfrom)(long, long, long, long, long, long) {}
FRT_HOOK_POST(recvfrom)(long res, long fd, long buf, long, long, long, long) {
    hook_received(res, fd, buf, FRT_CALLER());
}
FRT_HOOK_PRE(readv)(long, long, long) {}
FRT_HOOK_POST(readv)(long res, long fd, long vec, long vlen) {
    hook_received_iov(res, fd, vec, vlen, FRT_CALLER());
}
FRT_HOOK_PRE(preadv)(long, long, long, long, long) {}
FRT_HOOK_POST(preadv)(long res, long fd, long vec, long vlen, long, long) {
    hook_received_iov(res, fd, vec, vlen, FRT_CALLER());
}
FRT_HOOK_PRE(recvmsg)(long, long, long) {}
FRT_HOOK_POST(recvmsg)(long res, long fd, long msg, long) {
    const auto* m = as_ptr<const msghdr>(msg);
    hook_received_iov(res, fd, reinterpret_cast<long>(m->msg_iov), static_cast<long>(m->msg_iovlen),
                      FRT_CALLER());
    if (res >= 0) message_header_received(m, FRT_CALLER());
}

// --- data out ---------------------------------------------------------------------------------

FRT_HOOK_PRE(write)(long fd, long buf, long count) {
    hook_sent(fd, buf, count, FRT_CALLER());
}
FRT_HOOK_POST(write)(long, long, long, long) {}
FRT_HOOK_PRE(pwrite64)(long fd, long buf, long count, long) {
    hook_sent(fd, buf, count, FRT_CALLER());
}
FRT_HOOK_POST(pwrite64)(long, long, long, long, long) {}
FRT_HOOK_PRE(send)(long fd, long buf, long len, long) {
    hook_sent(fd, buf, len, FRT_CALLER());
}
FRT_HOOK_POST(send)(long, long, long, long, long) {}
FRT_HOOK_PRE(sendto)(long fd, long buf, long len, long, long, long) {
    hook_sent(fd, buf, len, FRT_CALLER());
}
FRT_HOOK_POST(sendto)(long, long, long, long, long, long, long) {}
FRT_HOOK_PRE(writev)(long fd, long vec, long vlen) {
    hook_sent_iov(fd, vec, vlen, FRT_CALLER());
}
FRT_HOOK_POST(writev)(long, long, long, long) {}
FRT_HOOK_PRE(pwritev)(long fd, long vec, long vlen, long, long) {
    hook_sent_iov(fd, vec, vlen, FRT_CALLER());
}
FRT_HOOK_POST(pwritev)(long, long, long, long, long, long) {}
FRT_HOOK_PRE(sendmsg)(long fd, long msg, long) {
    const auto* m = as_ptr<const msghdr>(msg);
    hook_sent_iov(fd, reinterpret_cast<long>(m->msg_iov), static_cast<long>(m->msg_iovlen),
                  FRT_CALLER());
}
FRT_HOOK_POST(sendmsg)(long, long, long, long) {}

// --- descriptors ------------------------------------------------------------------------------

// A raw close or dup2/dup3 onto one of the runtime's descriptors: the runtime's moves away first
// (rt_own_descriptors.cpp), the raw call then closes or replaces a number the runtime left.
FRT_HOOK_PRE(close)(long fd) {
    if (is_own_descriptor(as_fd(fd))) {
        vacate_own_descriptor(as_fd(fd));
        return;
    }
    retired(as_fd(fd), FRT_CALLER());
}
FRT_HOOK_POST(close)(long, long) {}
FRT_HOOK_PRE(pipe)(long) {}
FRT_HOOK_POST(pipe)(long res, long fds) {
    pipe_created(static_cast<int>(res), as_ptr<const int>(fds), FRT_CALLER(), true);
}
FRT_HOOK_PRE(pipe2)(long, long) {}
FRT_HOOK_POST(pipe2)(long res, long fds, long) {
    pipe_created(static_cast<int>(res), as_ptr<const int>(fds), FRT_CALLER(), true);
}
FRT_HOOK_PRE(socketpair)(long, long, long, long) {}
FRT_HOOK_POST(socketpair)(long res, long, long, long, long fds) {
    pipe_created(static_cast<int>(res), as_ptr<const int>(fds), FRT_CALLER(), false);
}
FRT_HOOK_PRE(dup)(long) {}
FRT_HOOK_POST(dup)(long res, long fd) {
    duplicated(as_fd(fd), as_fd(res), true, FRT_CALLER());
}
FRT_HOOK_PRE(dup2)(long oldfd, long newfd) {
    vacate_own_descriptor(as_fd(newfd));
    if (oldfd != newfd) descriptor_used(as_fd(newfd), FRT_CALLER());
}
FRT_HOOK_POST(dup2)(long res, long oldfd, long) {
    duplicated(as_fd(oldfd), as_fd(res), false, FRT_CALLER());
}
FRT_HOOK_PRE(dup3)(long oldfd, long newfd, long) {
    vacate_own_descriptor(as_fd(newfd));
    if (oldfd != newfd) descriptor_used(as_fd(newfd), FRT_CALLER());
}
FRT_HOOK_POST(dup3)(long res, long oldfd, long, long) {
    duplicated(as_fd(oldfd), as_fd(res), false, FRT_CALLER());
}
FRT_HOOK_PRE(open)(long, long, long) {}
FRT_HOOK_POST(open)(long res, long, long, long) {
    file_opened(as_fd(res), FRT_CALLER());
}
FRT_HOOK_PRE(openat)(long, long, long, long) {}
FRT_HOOK_POST(openat)(long res, long, long, long, long) {
    file_opened(as_fd(res), FRT_CALLER());
}
FRT_HOOK_PRE(creat)(long, long) {}
FRT_HOOK_POST(creat)(long res, long, long) {
    file_opened(as_fd(res), FRT_CALLER());
}
FRT_HOOK_PRE(eventfd)(long) {}
FRT_HOOK_POST(eventfd)(long res, long) {
    created(as_fd(res), FRT_CALLER());
}
FRT_HOOK_PRE(eventfd2)(long, long) {}
FRT_HOOK_POST(eventfd2)(long res, long, long) {
    created(as_fd(res), FRT_CALLER());
}
FRT_HOOK_PRE(socket)(long, long, long) {}
FRT_HOOK_POST(socket)(long res, long domain, long type, long) {
    socket_created(as_fd(res), static_cast<int>(domain), static_cast<int>(type), FRT_CALLER());
}
FRT_HOOK_PRE(accept)(long, long, long) {}
FRT_HOOK_POST(accept)(long res, long fd, long, long) {
    accepted(as_fd(fd), as_fd(res), FRT_CALLER());
}
FRT_HOOK_PRE(accept4)(long, long, long, long) {}
FRT_HOOK_POST(accept4)(long res, long fd, long, long, long) {
    accepted(as_fd(fd), as_fd(res), FRT_CALLER());
}
FRT_HOOK_PRE(connect)(long fd, long addr, long len) {
    connecting(as_fd(fd), as_ptr<const struct sockaddr>(addr), static_cast<socklen_t>(len),
               FRT_CALLER());
}
FRT_HOOK_POST(connect)(long res, long fd, long addr, long len) {
    connected(as_fd(fd), as_ptr<const struct sockaddr>(addr), static_cast<socklen_t>(len),
              static_cast<int>(res));
}

// --- processes --------------------------------------------------------------------------------

FRT_HOOK_PRE(fork)() {}
FRT_HOOK_POST(fork)(long res) {
    if (res == 0) after_fork_in_child();
}

// --- futexes ---------------------------------------------------------------------

FRT_HOOK_PRE(futex)(long uaddr, long op, long val, long timeout, long uaddr2, long val3) {
    futex_hook_before(SYS_futex, {uaddr, op, val, timeout, uaddr2, val3}, FRT_CALLER());
}
FRT_HOOK_POST(futex)
(long res, long uaddr, long op, long val, long timeout, long uaddr2, long val3) {
    futex_hook_after(SYS_futex, {uaddr, op, val, timeout, uaddr2, val3}, res, FRT_CALLER());
}

// --- the hooks of system calls whose effects are not modelled -------------------------------

#define FRT_SYSCALL_HOOK(name, n)                                                                  \
    FRT_HOOK_PRE(name)(FRT_LONGS_##n) {}                                                           \
    FRT_HOOK_POST(name)(FRT_POST_LONGS_##n) {}
#include "rt_syscall_hooks_unmodelled.inc"
