// The blocks a thread-safe C library call allocates and frees for its own state, besides the
// result it hands to the program. glibc's getaddrinfo keeps the interface addresses it asks the
// kernel for (__check_pf's netlink answer) in one reference-counted block that all threads share
// and that whichever thread drops the last reference frees, guarded by glibc's own lock and
// atomics; gai.conf's tables and the resolver's configuration are kept the same way. POSIX makes
// getaddrinfo thread-safe, so that ordering is the library's business, and the runtime does not
// see it: as writes of the program's, one thread's allocation and another's free of such a block
// raced (libuv's getaddrinfo_concurrent; ThreadSanitizer ignores every access inside
// getaddrinfo). Inside such a call, an allocation or free is no write of the block; its free
// still orders the block's reuse (rt_reuse_ordering.hpp), and the block is still named by the
// program's call (ProgramAllocations). The result the call hands over is written by its
// interceptor.
#pragma once

#include "rt_stdio.hpp"

namespace frt {

// Set while a call of the program runs a library function whose allocations and frees are the
// library's own (rt_allocator.cpp records no write of those blocks while it is set).
extern __thread bool tls_library_owns_blocks __attribute__((tls_model("initial-exec")));

// Made around the real call at pc.
class LibraryOwnBlocks {
  public:
    explicit LibraryOwnBlocks(u64 pc) : named_(pc) { tls_library_owns_blocks = true; }
    ~LibraryOwnBlocks() { tls_library_owns_blocks = false; }
    LibraryOwnBlocks(const LibraryOwnBlocks&) = delete;
    LibraryOwnBlocks& operator=(const LibraryOwnBlocks&) = delete;

  private:
    ProgramAllocations named_;
};

} // namespace frt
