// Large PageArray mappings freed during an analysis, kept for the next large PageArray of the
// same analysis instead of being unmapped (DESIGN-NOTES "Partitions without member lists").
//
// A page the kernel hands out is zeroed on its first touch, which on the virtual machines of
// issue 14 costs 0.3-2 s a GB; pages already written cost nothing to write again. On dense
// traces a stage frees per-race arrays shortly before a later stage fills others of a few
// bytes per race (fork/join waves at 1.4·10^6 lines, 2.3·10^8 races: the dependence lists'
// 0.9 GB and the sweep's flags, then the statuses, the partitions, the overlap column). The
// later arrays take the freed pages over (moved by mremap: pieces of one mapping, or pieces of
// several made one) instead of faulting in fresh ones. Kept mappings stay resident until taken,
// so only a few are kept, only while a `Scope` is open on the thread (analyze() opens one: the
// analysis runs on one thread), and the scope unmaps what is left when it closes. Not on
// Linux: nothing is kept.
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
    // Arrays from this size take kept pages (one huge page): the columns of traces with
    // 10^6-10^7 races are below kSmallest, but the dependence lists they follow are kept
    // (vars at 10^5 lines: 9.2·10^6 races, 1-byte columns after 37 MB of lists), and kept
    // pages left unused add to the peak.
    static constexpr std::size_t kSmallestTaken = std::size_t(2) << 20;

    // A mapping of `bytes` (a multiple of the page size) made of kept pages as far as they go
    // (written before, any contents), the rest fresh; nullptr when nothing is kept. The pages
    // are cut from the largest kept mappings first: the fewest pieces to move. A piece is moved
    // by mremap (the page tables move, not the data), so the pages freed by several arrays make
    // one array: the stages free their per-race arrays a few at a time, of other sizes than the
    // next stage's (DESIGN-NOTES "Per-race arrays on reused pages").
    static void* take(std::size_t bytes) {
#if defined(__linux__)
        if (bytes < kSmallestTaken) return nullptr;
        Mapping* first = largest();
        if (first == nullptr) return nullptr;
        if (first->bytes >= bytes) return cut(*first, bytes);
        // Several pieces: moved, largest first, to the front of a fresh mapping.
        void* const region =
            ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (region == MAP_FAILED) return nullptr;
        char* const base = static_cast<char*>(region);
        std::size_t filled = 0;
        for (Mapping* m = first; m != nullptr && filled < bytes; m = largest()) {
            const std::size_t n = m->bytes < bytes - filled ? m->bytes : bytes - filled;
            char* const from = static_cast<char*>(m->data) + (m->bytes - n);
            if (::mremap(from, n, n, MREMAP_MAYMOVE | MREMAP_FIXED, base + filled) == MAP_FAILED)
                break; // the piece is still mapped where it was, and still kept
            m->bytes -= n;
            if (m->bytes == 0) *m = {};
            filled += n;
        }
        return region;
#else
        (void)bytes;
        return nullptr;
#endif
    }

    // Whether the mapping [data, data + bytes) is kept (then the caller must not unmap it).
    // With every slot taken, the smallest of them and the new one is unmapped.
    static bool keep(void* data, std::size_t bytes) {
#if !defined(__linux__)
        return false; // PageArray's storage is realloc's there
#else
        Pool& p = pool();
        if (p.depth == 0 || bytes < kSmallest) return false;
        Mapping* smallest = &p.kept[0];
        for (Mapping& m : p.kept) {
            if (m.data == nullptr) {
                m = {data, bytes};
                return true;
            }
            if (m.bytes < smallest->bytes) smallest = &m;
        }
        if (smallest->bytes >= bytes) return false;
        ::munmap(smallest->data, smallest->bytes);
        *smallest = {data, bytes};
        return true;
#endif
    }

    // Bytes kept on this thread (for tests).
    static std::size_t kept_bytes() {
        std::size_t n = 0;
        for (const Mapping& m : pool().kept)
            n += m.bytes;
        return n;
    }

    // Mappings kept at most (pieces of one count as one each).
    static constexpr std::size_t kSlots = 8;

  private:
    struct Mapping {
        void* data = nullptr;
        std::size_t bytes = 0;
    };
    struct Pool {
        unsigned depth = 0;
        std::array<Mapping, kSlots> kept{};
    };
    static Pool& pool() {
        thread_local Pool p;
        return p;
    }
    static Mapping* largest() {
        Mapping* best = nullptr;
        for (Mapping& m : pool().kept)
            if (m.data != nullptr && (best == nullptr || m.bytes > best->bytes)) best = &m;
        return best;
    }
    // The first `bytes` of m, taken out of it (m keeps the rest).
    static void* cut(Mapping& m, std::size_t bytes) {
        void* const data = m.data;
        m.bytes -= bytes;
        m.data = m.bytes == 0 ? nullptr : static_cast<char*>(m.data) + bytes;
        return data;
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
