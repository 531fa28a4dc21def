// Sockets in the descriptor model (rt_socket.cpp has the semantics): which open file description
// a send on a socket releases and a receive acquires.
#pragma once

#include <sys/socket.h>

#include "rt_fd_table.hpp"

namespace frt::fd {

// The description of every AF_INET/AF_INET6 socket whose peer the runtime cannot tell (the
// model before sockets were paired: ThreadSanitizer's one socket object).
constexpr u64 kSocketDescription = 1;

// socket() returned fd for (domain, type): a new incarnation, not yet paired; returns fd.
int socket_created(int fd, int domain, int type, u64 pc);
// Before connect(fd, to): the use of fd and the Release that accept() on the listening address
// acquires.
void connecting(int fd, const struct sockaddr* to, socklen_t len, u64 pc);
// connect(fd, to) returned r: the socket is paired with its peer (at once, or at its first
// transfer when the connection is still in progress); returns r.
int connected(int fd, const struct sockaddr* to, socklen_t len, int r);
// accept/accept4 on `listener` returned fd: ordered after the connects to the listener's address,
// paired with the connecting socket; returns fd.
int accepted(int listener, int fd, u64 pc);

// The description a send on socket fd releases (`to`: the address sendto/sendmsg gave, or null)
// and the one a receive on it acquires, besides socket_unknown_peers(): the description of the
// sockets of its family whose peers cannot be told.
u64 socket_send_description(int fd, DescriptorState& s, const struct sockaddr* to, socklen_t len);
u64 socket_receive_description(int fd, DescriptorState& s);
u64 socket_unknown_peers(const DescriptorState& s);

} // namespace frt::fd
