// More calls that return a list in blocks they allocate (as scandir and glob,
// rt_libc_path_lists.cpp): what they store there and into the caller's anchor are writes at the
// caller's program counter, the blocks are the program's allocations and the frees of the
// matching free call are the program's (tls_library_call_pc, rt_stdio.hpp). A thread that reads
// a list another thread is making, or two threads filling one anchor, race (ThreadSanitizer
// records the same ranges).
//
//   wordexp        reads the words (and the wordexp_t with WRDE_APPEND or WRDE_REUSE); on
//                  success or WRDE_NOSPACE writes the wordexp_t, the array (we_offs + we_wordc
//                  + 1 pointers) and each word's text (WRDE_NOCMD aside, glibc may run a shell
//                  for a command substitution: a process of its own, not traced)
//   wordfree       reads and writes the wordexp_t; its frees are the program's
//   getifaddrs     writes *ifap and, on success, every node of the list: the struct, the name,
//                  the addresses (their family's size) and an AF_PACKET node's link statistics
//   freeifaddrs    its frees are the program's
// Only from threads the runtime already knows, never from inside the runtime.
#include <ifaddrs.h>
#include <linux/if_link.h>
#include <netinet/in.h>
#include <netpacket/packet.h>
#include <sys/socket.h>
#include <wordexp.h>

#include "rt_library_call.hpp"
#include "rt_real.hpp"
#include "rt_stdio.hpp"

using namespace frt;

namespace {

FRT_DECLARE_REAL(wordexp);
FRT_DECLARE_REAL(wordfree);
FRT_DECLARE_REAL(getifaddrs);
FRT_DECLARE_REAL(freeifaddrs);

// The bytes of an interface address of its family (a sockaddr's minimum otherwise).
u64 address_size(const struct sockaddr* a) {
    switch (a->sa_family) {
    case AF_INET:
        return sizeof(struct sockaddr_in);
    case AF_INET6:
        return sizeof(struct sockaddr_in6);
    case AF_PACKET:
        return sizeof(struct sockaddr_ll);
    default:
        return sizeof(struct sockaddr);
    }
}

} // namespace

FRT_EXPORT int wordexp(const char* words, wordexp_t* we, int flags) {
    const u64 pc = FRT_CALLER();
    if (LibraryCall c(pc); c) {
        c.text(words, false);
        if ((flags & (WRDE_APPEND | WRDE_REUSE)) != 0) c.bytes(we, sizeof *we, false);
    }
    int r;
    {
        ProgramAllocations program(pc);
        r = REAL(wordexp)(words, we, flags);
    }
    // (glibc stores into *we on success and, with what it expanded so far, on WRDE_NOSPACE)
    if (LibraryCall c(pc); c && (r == 0 || r == WRDE_NOSPACE)) {
        c.bytes(we, sizeof *we, true);
        if (we->we_wordv != nullptr) {
            c.bytes(we->we_wordv, (we->we_offs + we->we_wordc + 1) * sizeof *we->we_wordv, true);
            for (size_t i = 0; i < we->we_wordc; ++i)
                c.text(we->we_wordv[we->we_offs + i], true);
        }
    }
    return r;
}

FRT_EXPORT void wordfree(wordexp_t* we) {
    const u64 pc = FRT_CALLER();
    if (LibraryCall c(pc); c) c.bytes(we, sizeof *we, false);
    {
        ProgramAllocations program(pc);
        REAL(wordfree)(we);
    }
    if (LibraryCall c(pc); c) c.bytes(we, sizeof *we, true);
}

FRT_EXPORT int getifaddrs(struct ifaddrs** ifap) {
    const u64 pc = FRT_CALLER();
    int r;
    {
        ProgramAllocations program(pc);
        r = REAL(getifaddrs)(ifap);
    }
    if (r != 0) return r;
    if (LibraryCall c(pc); c) {
        c.bytes(ifap, sizeof(struct ifaddrs*), true);
        for (const struct ifaddrs* a = *ifap; a != nullptr; a = a->ifa_next) {
            c.bytes(a, sizeof *a, true);
            c.text(a->ifa_name, true);
            for (const struct sockaddr* s : {a->ifa_addr, a->ifa_netmask, a->ifa_broadaddr})
                if (s != nullptr) c.bytes(s, address_size(s), true);
            if (a->ifa_addr != nullptr && a->ifa_addr->sa_family == AF_PACKET)
                c.bytes(a->ifa_data, sizeof(struct rtnl_link_stats), true);
        }
    }
    return r;
}

FRT_EXPORT void freeifaddrs(struct ifaddrs* list) {
    ProgramAllocations program(FRT_CALLER());
    REAL(freeifaddrs)(list);
}

FRT_INTERCEPTOR_ALIAS(wordexp)
FRT_INTERCEPTOR_ALIAS(wordfree)
FRT_INTERCEPTOR_ALIAS(getifaddrs)
FRT_INTERCEPTOR_ALIAS(freeifaddrs)
