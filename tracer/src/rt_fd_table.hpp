// The runtime's table of the program's file descriptors (rt_fd.cpp has their model): per
// descriptor number, the state of its current incarnation, and the bytes that stand for the
// incarnations in the trace. Every number below kMaxFd is modelled: a process may raise
// RLIMIT_NOFILE up to /proc/sys/fs/nr_open (2^20 by default), and servers do.
#pragma once

#include <atomic>

#include "rt_internal.hpp"

namespace frt::fd {

constexpr int kMaxFd = 1 << 20;

// What the current incarnation of a number is, as far as the model needs it.
enum Kind : u8 {
    kOtherKind,      // a file, a pipe end, an eventfd, ...
    kSignalfdKind,   // a read accepts signals (rt_signals.cpp)
    kStreamSocket,   // SOCK_STREAM, SOCK_SEQPACKET: one connection (rt_socket.cpp)
    kDatagramSocket, // SOCK_DGRAM, SOCK_RAW: addressed datagrams (rt_socket.cpp)
    kRegularFile,    // its description is its file's (rt_fd_files.cpp): no end of file to send
};

struct DescriptorState {
    std::atomic<u64> description; // its open file description (0: the descriptor's own)
    std::atomic<u64> peer;        // a connected datagram socket: its peer address's description
    std::atomic<u32> incarnation;
    std::atomic<u8> kind;
    std::atomic<u8> family;    // sockets: AF_INET, AF_INET6, AF_UNIX, ...
    std::atomic<u8> resolved;  // sockets: `description` is the connection's / bound address's
    std::atomic<u8> role;      // stream sockets: made by connect() (1) or by accept() (2)
    std::atomic<u8> file_lock; // the flock mode it holds (rt_file_locks.cpp)
    std::atomic<u8> access;    // its O_ACCMODE + 1 when known (0: ask fcntl)
};

// fd's state; null when fd is not modelled (negative, kMaxFd or more, or no memory for it).
DescriptorState* descriptor_state(int fd);
// The byte that stands for the incarnation of fd (one of incarnations(fd), reused cyclically).
const void* descriptor_byte(int fd, u32 incarnation);
u32 incarnations(int fd);

} // namespace frt::fd
