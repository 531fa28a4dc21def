// Sockets, as the kernel orders them: a byte sent on a socket is received on its peer, so a send
// is ordered before the receives on the socket it reaches, not before those on every socket of
// the program.
//
//   connected stream sockets     (SOCK_STREAM, SOCK_SEQPACKET) both ends of a connection share
//                                one description, found by the connection's identity, which
//                                both ends compute alike: for AF_INET/AF_INET6 its two
//                                endpoints (getsockname, getpeername; IPv4-mapped IPv6 as IPv4),
//                                for AF_UNIX the two sockets' inodes (the peer's from the
//                                kernel's sock_diag interface, UNIX_DIAG_PEER). The client end
//                                is paired when connect() returns (or at its first transfer when
//                                a non-blocking connect was still in progress), the server end
//                                when accept() returns: each end before its first transfer, so
//                                a receive always finds its sender's description. A connection
//                                to another process gets a description that only its own end
//                                uses: ordered with nothing else.
//   datagram sockets             (SOCK_DGRAM, SOCK_RAW) a datagram goes to an address: a send
//                                releases the description of its destination (sendto's or
//                                sendmsg's address, else the address connect() gave), a receive
//                                acquires that of the address the socket is bound to
//                                (getsockname at its first receive once bound). An AF_INET/
//                                AF_INET6 address is its port (a socket bound to INADDR_ANY
//                                receives what is sent to 127.0.0.1 or any other local address
//                                of the port), an AF_UNIX one its name.
//   connect -> accept            connect() releases the description of the address it connects
//                                to (before the call: accept may return first), accept()
//                                acquires that of the listening socket's address: what a client
//                                did before connecting happened before the accept that returns
//                                a connection to that listener (and any later one of it).
//   unknown peers                a socket whose peer cannot be told (another family, an unnamed
//                                address, sock_diag unavailable, the pairing table full, not
//                                connected) uses its family's description of unknown peers
//                                (for AF_INET/AF_INET6 kSocketDescription: the one description
//                                all sockets shared before, ThreadSanitizer's model), and every
//                                receive and accept on a socket of the family acquires it too:
//                                a send whose destination is unknown still orders every receive
//                                that may get it (over-ordering rather than false races).
//
// Identities map to descriptions through a fixed lock-free table (kPairSlots keys; an identity
// is never removed: a later connection with the endpoints of a closed one shares its
// description, which can only over-order). socketpair()'s ends share a description as a pipe's
// do (rt_fd.cpp).
#include "rt_socket.hpp"
#include "rt_own_descriptors.hpp"

#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <netinet/in.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>

#include <cstdint>

#include "rt_fd.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_system.hpp"

using namespace frt;
using namespace frt::fd;

namespace {

enum Resolution : u8 { kPending, kResolved, kUnknown };
enum Role : u8 { kNoRole, kConnecting, kAccepted };

// --- identities -------------------------------------------------------------------------------

constexpr u64 kConnectionTag = 0x636f6e6e00000000ull;
constexpr u64 kStreamAddressTag = 0x7374726d00000000ull;
constexpr u64 kDatagramAddressTag = 0x6467726d00000000ull;

u64 bytes_hash(const void* p, std::size_t n, u64 h) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return hash64(h);
}

// An INET endpoint: 16 address bytes (IPv4 as IPv4-mapped IPv6) and the port; false for other
// families or a short address.
bool inet_endpoint(const struct sockaddr* a, socklen_t len, unsigned char addr[16],
                   std::uint16_t& port) {
    if (a == nullptr) return false;
    if (a->sa_family == AF_INET && len >= sizeof(struct sockaddr_in)) {
        const auto* in = reinterpret_cast<const struct sockaddr_in*>(a);
        for (int i = 0; i < 10; ++i)
            addr[i] = 0;
        addr[10] = addr[11] = 0xff;
        __builtin_memcpy(addr + 12, &in->sin_addr, 4);
        port = in->sin_port;
        return true;
    }
    if (a->sa_family == AF_INET6 && len >= sizeof(struct sockaddr_in6)) {
        const auto* in6 = reinterpret_cast<const struct sockaddr_in6*>(a);
        __builtin_memcpy(addr, &in6->sin6_addr, 16);
        port = in6->sin6_port;
        return true;
    }
    return false;
}

// The identity of an address a socket is bound to or sends to (0: none): its port for INET (0:
// not bound yet), its name for AF_UNIX (unnamed: none).
u64 address_identity(const struct sockaddr* a, socklen_t len, u64 tag) {
    unsigned char addr[16];
    std::uint16_t port = 0;
    if (inet_endpoint(a, len, addr, port)) return port == 0 ? 0 : hash64(tag | port) | 1;
    if (a != nullptr && a->sa_family == AF_UNIX) {
        const socklen_t name =
            len > offsetof(struct sockaddr_un, sun_path)
                ? len - static_cast<socklen_t>(offsetof(struct sockaddr_un, sun_path))
                : 0;
        const auto* un = reinterpret_cast<const struct sockaddr_un*>(a);
        std::size_t n = name;
        if (n > 0 && un->sun_path[0] != '\0') { // a path: up to its terminating zero
            std::size_t end = 0; // not strnlen: the program's interposed one records reads
            while (end < n && un->sun_path[end] != '\0')
                ++end;
            n = end;
        }
        return n == 0 ? 0 : bytes_hash(un->sun_path, n, tag) | 1;
    }
    return 0;
}

// The inode of the peer of the AF_UNIX socket with this inode, from the kernel's sock_diag
// interface (0: unknown, or not accepted yet: the server's end has no inode before accept).
// `answered`: the kernel described the socket (sock_diag works here).
u64 unix_peer_inode(u64 inode, bool& answered) {
    answered = false;
    std::atomic<int> holder{-1}; // a runtime descriptor: a program closing everything spares it
    const int nl = own_descriptor(
        holder, static_cast<int>(system_call(SYS_socket, AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC,
                                             NETLINK_SOCK_DIAG)));
    if (nl < 0) return 0;
    struct {
        struct nlmsghdr header;
        struct unix_diag_req request;
    } query{};
    query.header.nlmsg_len = sizeof query;
    query.header.nlmsg_type = SOCK_DIAG_BY_FAMILY;
    query.header.nlmsg_flags = NLM_F_REQUEST;
    query.request.sdiag_family = AF_UNIX;
    query.request.udiag_states = ~0u;
    query.request.udiag_ino = static_cast<u32>(inode);
    query.request.udiag_show = UDIAG_SHOW_PEER;
    query.request.udiag_cookie[0] = query.request.udiag_cookie[1] = ~0u;
    u64 peer = 0;
    alignas(struct nlmsghdr) char answer[512];
    if (system_call(SYS_sendto, nl, &query, sizeof query, 0, nullptr, 0) == sizeof query) {
        const long n = system_call(SYS_recvfrom, nl, answer, sizeof answer, 0, nullptr, nullptr);
        const auto* h = reinterpret_cast<const struct nlmsghdr*>(answer);
        if (n >= static_cast<long>(NLMSG_LENGTH(sizeof(struct unix_diag_msg))) &&
            h->nlmsg_type == SOCK_DIAG_BY_FAMILY && h->nlmsg_len <= static_cast<u32>(n)) {
            const auto* m = static_cast<const struct unix_diag_msg*>(NLMSG_DATA(h));
            auto* a = reinterpret_cast<const struct rtattr*>(m + 1);
            int left = static_cast<int>(h->nlmsg_len - NLMSG_LENGTH(sizeof *m));
            answered = m->udiag_ino == static_cast<u32>(inode);
            for (; RTA_OK(a, left); a = RTA_NEXT(a, left))
                if (a->rta_type == UNIX_DIAG_PEER && RTA_PAYLOAD(a) >= sizeof(u32) &&
                    m->udiag_ino == static_cast<u32>(inode))
                    peer = *static_cast<const u32*>(RTA_DATA(a));
        }
    }
    close_own_descriptor(holder);
    return peer;
}

// The identity of stream socket fd's connection, the same at both ends (0: unknown). `pending`:
// not connected yet (try again later).
u64 connection_identity(int fd, u8 family, u8 role, bool& pending) {
    pending = false;
    if (family == AF_INET || family == AF_INET6) {
        struct sockaddr_storage local {
        }, peer{};
        socklen_t local_len = sizeof local, peer_len = sizeof peer;
        if (system_call(SYS_getsockname, fd, &local, &local_len) != 0) return 0;
        if (system_call(SYS_getpeername, fd, &peer, &peer_len) != 0) {
            pending = errno == ENOTCONN;
            return 0;
        }
        unsigned char a[16], b[16];
        std::uint16_t pa = 0, pb = 0;
        if (!inet_endpoint(reinterpret_cast<struct sockaddr*>(&local), local_len, a, pa) ||
            !inet_endpoint(reinterpret_cast<struct sockaddr*>(&peer), peer_len, b, pb))
            return 0;
        const u64 ha = bytes_hash(a, 16, pa), hb = bytes_hash(b, 16, pb);
        return hash64(kConnectionTag ^ hash64(ha < hb ? ha : hb) ^ (ha < hb ? hb : ha)) | 1;
    }
    if (family == AF_UNIX && (role == kConnecting || role == kAccepted)) {
        // The connecting socket's inode, which both ends can tell when sock_diag works (the
        // client asks about itself only to know that the server's end will get an answer).
        struct stat st {};
        if (system_call(SYS_fstat, fd, &st) != 0 || st.st_ino == 0) return 0;
        bool answered = false;
        const u64 peer = unix_peer_inode(st.st_ino, answered);
        const u64 connecting = !answered           ? 0
                               : role == kAccepted ? peer
                                                   : static_cast<u32>(st.st_ino);
        return connecting == 0 ? 0 : hash64(kConnectionTag ^ 1 ^ hash64(connecting)) | 1;
    }
    return 0;
}

// --- identities to descriptions ---------------------------------------------------------------

constexpr u32 kPairSlots = 1u << 14;
constexpr u32 kProbes = 64;
constexpr u64 kPairDescriptions = u64{1} << 32; // above rt_fd.cpp's counter, below the queues'
std::atomic<u64> g_identities[kPairSlots];

// The description of an identity (0 for none, or when the table is full).
u64 description_of(u64 identity) {
    if (identity == 0) return 0;
    for (u32 i = 0, s = static_cast<u32>(hash64(identity)) % kPairSlots; i < kProbes;
         ++i, s = (s + 1) % kPairSlots) {
        u64 seen = g_identities[s].load(std::memory_order_acquire);
        if (seen == 0 &&
            g_identities[s].compare_exchange_strong(seen, identity, std::memory_order_acq_rel))
            return kPairDescriptions + s;
        if (seen == identity) return kPairDescriptions + s;
    }
    return 0;
}

// The description of a family's sockets whose peers cannot be told: a socket only talks to
// sockets of its family (AF_INET and AF_INET6 to each other, through IPv4-mapped addresses).
u64 unknown_peers(u8 family) {
    if (family == AF_INET || family == AF_INET6) return kSocketDescription;
    return kPairDescriptions + kPairSlots + (family == AF_UNIX ? 0 : 1);
}
u64 or_unknown(u64 d, const DescriptorState& s) {
    return d != 0 ? d : unknown_peers(s.family.load(std::memory_order_relaxed));
}

// Pairs stream socket fd with its connection when the connection's identity is known.
void pair_connection(int fd, DescriptorState& s) {
    bool pending = false;
    const u64 identity = connection_identity(fd, s.family.load(std::memory_order_relaxed),
                                             s.role.load(std::memory_order_relaxed), pending);
    if (identity == 0 && pending) return;
    const u64 d = description_of(identity);
    s.description.store(or_unknown(d, s), std::memory_order_relaxed);
    s.resolved.store(d != 0 ? kResolved : kUnknown, std::memory_order_release);
}

// The description of the address socket fd is bound to (0 while unknown).
u64 bound_address_description(int fd, u64 tag) {
    struct sockaddr_storage local {};
    socklen_t len = sizeof local;
    if (system_call(SYS_getsockname, fd, &local, &len) != 0) return 0;
    return description_of(address_identity(reinterpret_cast<struct sockaddr*>(&local), len, tag));
}

} // namespace

namespace frt::fd {

int socket_created(int fd, int domain, int type, u64 pc) {
    created(fd, pc);
    if (DescriptorState* s = descriptor_state(fd)) {
        const int base = type & 0xf; // without SOCK_NONBLOCK, SOCK_CLOEXEC
        s->kind.store(base == SOCK_STREAM || base == SOCK_SEQPACKET ? kStreamSocket
                                                                    : kDatagramSocket,
                      std::memory_order_relaxed);
        s->family.store(static_cast<u8>(domain), std::memory_order_relaxed);
        s->description.store(unknown_peers(static_cast<u8>(domain)), std::memory_order_relaxed);
    }
    return fd;
}

void connecting(int fd, const struct sockaddr* to, socklen_t len, u64 pc) {
    InterceptorScope scope(enter_call(pc));
    if (!scope) return;
    descriptor_read(scope.thread(), fd, pc);
    const DescriptorState* s = descriptor_state(fd);
    if (s == nullptr || s->kind.load(std::memory_order_relaxed) != kStreamSocket) return;
    release_description(
        scope.thread(),
        or_unknown(description_of(address_identity(to, len, kStreamAddressTag)), *s), pc);
}

int connected(int fd, const struct sockaddr* to, socklen_t len, int r) {
    const int saved_errno = errno;
    DescriptorState* s = r == 0 || errno == EINPROGRESS ? descriptor_state(fd) : nullptr;
    if (s != nullptr && s->kind.load(std::memory_order_relaxed) == kStreamSocket) {
        s->role.store(kConnecting, std::memory_order_relaxed);
        pair_connection(fd, *s);
    } else if (s != nullptr && s->kind.load(std::memory_order_relaxed) == kDatagramSocket) {
        s->peer.store(description_of(address_identity(to, len, kDatagramAddressTag)),
                      std::memory_order_relaxed);
    }
    errno = saved_errno;
    return r;
}

int accepted(int listener, int fd, u64 pc) {
    if (fd < 0) return fd;
    const int saved_errno = errno;
    DescriptorState* l = descriptor_state(listener);
    u8 family = AF_UNSPEC;
    if (l != nullptr && l->kind.load(std::memory_order_relaxed) == kStreamSocket) {
        family = l->family.load(std::memory_order_relaxed);
        u64 address = l->peer.load(std::memory_order_relaxed); // the listener's, once known
        if (address == 0) {
            address = bound_address_description(listener, kStreamAddressTag);
            l->peer.store(address, std::memory_order_relaxed);
        }
        if (InterceptorScope scope(enter_call(pc)); scope) {
            if (address != 0) acquire_description(scope.thread(), address, pc);
            acquire_description(scope.thread(), unknown_peers(family), pc);
        }
    }
    socket_created(fd, family, SOCK_STREAM, pc);
    if (DescriptorState* s = descriptor_state(fd)) {
        s->role.store(kAccepted, std::memory_order_relaxed);
        pair_connection(fd, *s);
    }
    errno = saved_errno;
    return fd;
}

u64 socket_send_description(int fd, DescriptorState& s, const struct sockaddr* to, socklen_t len) {
    if (s.kind.load(std::memory_order_relaxed) == kDatagramSocket) {
        if (to != nullptr)
            return or_unknown(description_of(address_identity(to, len, kDatagramAddressTag)), s);
        return or_unknown(s.peer.load(std::memory_order_relaxed), s);
    }
    if (s.resolved.load(std::memory_order_acquire) == kPending) pair_connection(fd, s);
    return s.description.load(std::memory_order_relaxed);
}

u64 socket_receive_description(int fd, DescriptorState& s) {
    if (s.resolved.load(std::memory_order_acquire) == kPending) {
        if (s.kind.load(std::memory_order_relaxed) == kStreamSocket) {
            pair_connection(fd, s);
        } else if (const u64 d = bound_address_description(fd, kDatagramAddressTag); d != 0) {
            s.description.store(d, std::memory_order_relaxed); // bound: its address stays
            s.resolved.store(kResolved, std::memory_order_release);
        }
    }
    return s.description.load(std::memory_order_relaxed);
}

u64 socket_unknown_peers(const DescriptorState& s) {
    return unknown_peers(s.family.load(std::memory_order_relaxed));
}

} // namespace frt::fd

namespace {
FRT_DECLARE_REAL(socket);
FRT_DECLARE_REAL(connect);
FRT_DECLARE_REAL(accept);
FRT_DECLARE_REAL(accept4);
} // namespace

FRT_EXPORT int socket(int domain, int type, int protocol) {
    return socket_created(REAL(socket)(domain, type, protocol), domain, type, FRT_CALLER());
}
FRT_EXPORT int connect(int fd, const struct sockaddr* addr, socklen_t len) {
    connecting(fd, addr, len, FRT_CALLER());
    return connected(fd, addr, len, REAL(connect)(fd, addr, len));
}
FRT_EXPORT int accept(int fd, struct sockaddr* addr, socklen_t* len) {
    const u64 pc = FRT_CALLER();
    return accepted(fd, REAL(accept)(fd, addr, len), pc);
}
FRT_EXPORT int accept4(int fd, struct sockaddr* addr, socklen_t* len, int flags) {
    const u64 pc = FRT_CALLER();
    return accepted(fd, REAL(accept4)(fd, addr, len, flags), pc);
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(socket)
FRT_INTERCEPTOR_ALIAS(connect)
FRT_INTERCEPTOR_ALIAS(accept)
FRT_INTERCEPTOR_ALIAS(accept4)
