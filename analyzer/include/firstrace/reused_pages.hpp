// Large PageArray mappings freed during an analysis, kept for the next large PageArray of the
// same analysis instead of being unmapped (DESIGN-NOTES "Partitions without member lists").
//
// A page the kernel hands out is zeroed on its first touch, which on the virtual machines of
// issue 14 costs 0.3-2 s a GB; pages already written cost nothing to write again. On dense
// traces a stage frees a per-race array shortly before a later stage fills one of about the
// same size (the sweep's per-race flags, read by the dependences only, and the ordering's
// race -> partition column: 2.3·10^8 bytes each on fork/join waves). The later array takes the
// freed mapping over (mremap to its size: the pages move, the rest is unmapped) instead of
// faulting in fresh ones. Kept mappings stay resident until taken, so only a few are kept, only
// while a `Scope` is open on the thread (analyze() opens one: the analysis runs on one thread),
// and the scope unmaps what is left when it closes. Not on Linux: nothing is kept.
#pragma once

#include <array>
#include <cstddef>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace firstrace {

class ReusedPages {
  public:
    // Keeping is on while a scope is open on this thread (scopes nest).
    class Scope {
      public:
        Scope() { ++pool().depth; }
        ~Scope() {
            if (--pool().depth == 0) release_all();
        }
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;
    };

    // Below this a mapping is a few huge pages at most: not worth keeping.
    static constexpr std::size_t kSmallest = std::size_t(16) << 20;

    // A kept mapping resized to `bytes` (its pages written before, any contents), or nullptr.
    // The largest one is taken: the most of its pages are used again.
    static void* take(std::size_t bytes) {
#if defined(__linux__)
        Pool& p = pool();
        Mapping* best = nullptr;
        for (Mapping& m : p.kept)
            if (m.data != nullptr && (best == nullptr || m.bytes > best->bytes)) best = &m;
        if (best == nullptr || bytes < kSmallest) return nullptr;
        void* data = best->data;
        if (best->bytes != bytes) data = ::mremap(data, best->bytes, bytes, MREMAP_MAYMOVE);
        if (data == MAP_FAILED) data = nullptr; // the old mapping is then still mapped
        if (data == nullptr) ::munmap(best->data, best->bytes);
        *best = {};
        return data;
#else
        (void)bytes;
        return nullptr;
#endif
    }

    // Whether the mapping [data, data + bytes) is kept (then the caller must not unmap it).
    static bool keep(void* data, std::size_t bytes) {
#if !defined(__linux__)
        return false; // PageArray's storage is realloc's there
#endif
        Pool& p = pool();
        if (p.depth == 0 || bytes < kSmallest) return false;
        for (Mapping& m : p.kept)
            if (m.data == nullptr) {
                m = {data, bytes};
                return true;
            }
        return false;
    }

    // Bytes kept on this thread (for tests).
    static std::size_t kept_bytes() {
        std::size_t n = 0;
        for (const Mapping& m : pool().kept)
            n += m.bytes;
        return n;
    }

  private:
    struct Mapping {
        void* data = nullptr;
        std::size_t bytes = 0;
    };
    struct Pool {
        unsigned depth = 0;
        std::array<Mapping, 4> kept{};
    };
    static Pool& pool() {
        thread_local Pool p;
        return p;
    }
    static void release_all() {
        for (Mapping& m : pool().kept) {
#if defined(__linux__)
            if (m.data != nullptr) ::munmap(m.data, m.bytes);
#endif
            m = {};
        }
    }
};

} // namespace firstrace
