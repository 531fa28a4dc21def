// The file-descriptor model (rt_fd.cpp, whose header comment gives the semantics), as steps that
// both the libc interceptors and the raw system call hooks (rt_syscall_hooks.cpp) take around
// the real call. pc: the program's call site. Each step enters the runtime itself (it is a
// no-op for the runtime's own calls or while the guard is held).
#pragma once

#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>

#include "rt_internal.hpp"

namespace frt::fd {

// Before data goes out through fd (write, send, ...): the use of fd, the read of the n bytes
// at buf, the Release of this writer's object of fd's description (a message queue's: of the
// message's priority).
void before_send(int fd, u64 pc, const void* buf, u64 n, u32 priority = 0);
// After a call that took data in through fd returned r (read, recv, ...): the use of fd and,
// when r >= 0, the Acquire of every writer object of fd's description (a message queue's: of
// the received message's priority); r == 0 is end of file, which also acquires the ends of
// data sent there (a close of a write end).
void after_receive(int fd, u64 pc, ssize_t r, u32 priority = 0);
// The kernel reported fd ready (epoll_wait, rt_epoll.cpp): the Acquire of every writer object of
// fd's description, as a read would, without the read's use of fd (a message queue's: of every
// priority).
void readiness_reported(int fd, u64 pc);
// The r bytes a receive stored at buf (writes; nothing when r <= 0).
void received_into(const void* buf, ssize_t r, u64 pc);
// What recvmsg stored in a message header besides the data: the sender's address, the
// control messages and the flags (writes), and each descriptor an SCM_RIGHTS message handed
// out (a new incarnation of its number, as open's: another thread's close of the number's old
// descriptor does not race with its uses).
void message_header_received(const struct msghdr* m, u64 pc);
// The first `bytes` bytes of an iovec array, read or written.
void iov_access(const struct iovec* iov, int n, u64 bytes, bool write, u64 pc);
u64 iov_bytes(const struct iovec* iov, int n);
// fd is closed: a write of its byte and a Release of it (its number is free for a new
// incarnation; see created()).
void retired(int fd, u64 pc);
// The kernel handed out fd at the call at pc (a negative fd: nothing); returns fd.
int created(int fd, u64 pc);
// created() for a call that opens a path (open, openat, creat, fopen, ...; `flags`: open's, or
// -1 when not known): a FIFO's or regular file's descriptors share the file's description, and
// opening a regular file for reading acquires its writers (rt_fd_files.cpp); returns fd.
int file_opened(int fd, u64 pc, int flags = -1);
// The file fd is open on, as a hash of its (device, inode) (never 0), or 0 when fstat fails.
u64 file_key(int fd);
// fd's writes so far are out (fflush of its stream): a send without data on its description
// when fd is open for writing on a pipe, FIFO, file or stream connection (close does the same).
void writes_flushed(int fd, u64 pc);
// pipe/pipe2/socketpair returned r: on success both ends share a new description (`one_way`:
// a pipe, whose fds[0] only reads and fds[1] only writes).
int pipe_created(int r, const int fds[2], u64 pc, bool one_way);
// newfd now refers to oldfd's description (fresh: the kernel chose newfd); returns newfd.
int duplicated(int oldfd, int newfd, bool fresh, u64 pc);
// A use of fd by a call that neither sends nor receives (a read of its byte): dup2/dup3 onto an
// open newfd (replaced atomically), mq_notify, mq_getattr.
void descriptor_used(int fd, u64 pc);
// mq_open returned fd, a descriptor of message queue number `queue` (rt_mq.cpp; 2^20 of them):
// its description is the queue's, whatever call opened it; returns fd.
int queue_opened(int fd, u32 queue, u64 pc);
// The message queue fd is a descriptor of (its number, shared by its duplicates), or kNoQueue.
constexpr u32 kNoQueue = ~0u;
u32 queue_of(int fd);
// The parts of the steps above that socket calls share (rt_socket.cpp), with the guard held:
// the read of fd's byte; the Release of this writer's object of description d (an id:
// kSocketDescription, a socket pairing's); the Acquire of every writer object of d so far.
void descriptor_read(ThreadState* t, int fd, u64 pc);
void release_description(ThreadState* t, u64 d, u64 pc);
void acquire_description(ThreadState* t, u64 d, u64 pc);
// fd, whose state is s, is closed: the flock it holds is released (rt_file_locks.cpp).
struct DescriptorState;
void file_lock_closed(ThreadState* t, int fd, DescriptorState& s, u64 pc);
// fcntl(fd, F_OFD_SETLK or F_OFD_SETLKW, request) made by `real` (rt_file_locks.cpp).
int open_description_lock(int fd, int cmd, const struct flock* request, u64 pc,
                          int (*real)(int, int, ...));
// before_send for sendto/sendmsg: `to` the destination they give (a datagram socket's).
void before_send_to(int fd, u64 pc, const void* buf, u64 n, const struct sockaddr* to,
                    socklen_t len);

} // namespace frt::fd
