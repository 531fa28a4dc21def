// The shadow of freed memory (rt_freed_memory.hpp): one 64-bit tag per 16-byte granule, in
// three levels so that only address ranges where something was freed cost memory.
//
//   directory table  4096 entries, one per 32 GiB of the 47-bit user address space (static)
//   directory        32768 entries, one per 1 MiB region (256 KiB, mapped on first use)
//   region entry     0: nothing freed there; odd: (tag << 1) | 1, the whole region last freed
//                    by one tag (large blocks and unmappings cost one store per MiB); else the
//                    region's shadow page (65536 tags, 512 KiB, mapped on first partial use,
//                    filled with the region's tag if it had one)
//
// Pages and directories are never unmapped (a shadow page is half the size of the heap region
// it covers, as long as the program has freed something there). Everything comes from
// map_anonymous (lazily committed): nothing here allocates through the program's malloc.
#include "rt_freed_memory.hpp"

#include <sys/mman.h>

#include "rt_system.hpp"

namespace frt {
namespace {

using Shadow = std::atomic<u64>;

constexpr unsigned kGranuleBits = 4;
constexpr unsigned kRegionBits = 20;
constexpr unsigned kDirectoryBits = 35;
constexpr unsigned kAddressBits = 47;
constexpr u64 kGranulesPerRegion = u64{1} << (kRegionBits - kGranuleBits);
constexpr u64 kRegionsPerDirectory = u64{1} << (kDirectoryBits - kRegionBits);
constexpr u64 kDirectories = u64{1} << (kAddressBits - kDirectoryBits);
constexpr u64 kGranuleLimit = u64{1} << (kAddressBits - kGranuleBits);

std::atomic<Shadow*> g_directories[kDirectories];

// Free ids are handed to threads in batches (one shared atomic per kIdBatch frees).
constexpr u64 kIdBatch = 4096;
constexpr u64 kIdLimit = u64{1} << kFreeIdBits;
std::atomic<u64> g_next_id_batch{1};
__thread u64 tls_next_id __attribute__((tls_model("initial-exec"))) = 0;
__thread u64 tls_end_id __attribute__((tls_model("initial-exec"))) = 0;

FRT_INLINE bool is_page(u64 entry) {
    return entry != 0 && (entry & 1) == 0;
}

// The directory of region `region` (a region index); created when `create`, else null when
// nothing was ever freed in its 32 GiB.
Shadow* directory(u64 region, bool create) {
    std::atomic<Shadow*>& slot = g_directories[region >> (kDirectoryBits - kRegionBits)];
    Shadow* d = slot.load(std::memory_order_acquire);
    if (d != nullptr || !create) return d;
    auto* fresh = static_cast<Shadow*>(map_anonymous(kRegionsPerDirectory * sizeof(Shadow)));
    if (fresh == nullptr) return nullptr;
    if (slot.compare_exchange_strong(d, fresh, std::memory_order_acq_rel,
                                     std::memory_order_acquire))
        return fresh;
    munmap(fresh, kRegionsPerDirectory * sizeof(Shadow)); // another thread's is in place
    return d;
}

void fill(Shadow* page, u64 from, u64 to, u64 tag) {
    for (u64 g = from; g < to; ++g)
        page[g].store(tag, std::memory_order_relaxed);
}

// The shadow page of a region entry, created (from a whole-region tag, if any) when absent.
Shadow* page_of(Shadow& entry) {
    u64 e = entry.load(std::memory_order_acquire);
    for (;;) {
        if (is_page(e)) return reinterpret_cast<Shadow*>(e);
        auto* fresh = static_cast<Shadow*>(map_anonymous(kGranulesPerRegion * sizeof(Shadow)));
        if (fresh == nullptr) return nullptr;
        if (e != 0) fill(fresh, 0, kGranulesPerRegion, e >> 1);
        if (entry.compare_exchange_strong(e, reinterpret_cast<u64>(fresh),
                                          std::memory_order_acq_rel, std::memory_order_acquire))
            return fresh;
        munmap(fresh, kGranulesPerRegion * sizeof(Shadow));
    }
}

// Calls f(entry or null, region index, first granule, end granule within the region) for each
// region piece of the granules covering [lo, hi) (addresses beyond 47 bits are not tracked).
template <class F> void for_each_region(u64 lo, u64 hi, bool create, F&& f) {
    u64 g = lo >> kGranuleBits;
    u64 end = (hi + (u64{1} << kGranuleBits) - 1) >> kGranuleBits;
    if (end > kGranuleLimit) end = kGranuleLimit;
    while (g < end) {
        const u64 region = g >> (kRegionBits - kGranuleBits);
        const u64 base = region << (kRegionBits - kGranuleBits);
        const u64 piece_end = base + kGranulesPerRegion < end ? base + kGranulesPerRegion : end;
        Shadow* d = directory(region, create);
        if (d == nullptr) {
            if (create) return; // out of memory: the reuse stays unordered
            // nothing freed in this directory's 32 GiB: skip to the next one
            const u64 next = ((region >> (kDirectoryBits - kRegionBits)) + 1)
                             << (kDirectoryBits - kGranuleBits);
            g = next;
            continue;
        }
        if (!f(d[region & (kRegionsPerDirectory - 1)], g - base, piece_end - base)) return;
        g = piece_end;
    }
}

} // namespace

FreeTag new_free_tag(u32 pid) {
    if (tls_next_id == tls_end_id) {
        const u64 first = g_next_id_batch.fetch_add(kIdBatch, std::memory_order_relaxed);
        if (first + kIdBatch > kIdLimit) return 0;
        tls_next_id = first;
        tls_end_id = first + kIdBatch;
    }
    const u64 p = pid < kFreePidUnknown ? pid : kFreePidUnknown;
    return (p << kFreeIdBits) | tls_next_id++;
}

void freed_memory_mark(u64 lo, u64 hi, FreeTag tag) {
    for_each_region(lo, hi, true, [&](Shadow& entry, u64 from, u64 to) {
        if (from == 0 && to == kGranulesPerRegion) {
            const u64 e = entry.load(std::memory_order_acquire);
            if (is_page(e))
                fill(reinterpret_cast<Shadow*>(e), from, to, tag);
            else
                entry.store((tag << 1) | 1, std::memory_order_release);
            return true;
        }
        Shadow* page = page_of(entry);
        if (page == nullptr) return false;
        fill(page, from, to, tag);
        return true;
    });
}

void freed_memory_scan(u64 lo, u64 hi, u32 pid, void (*visit)(void*, FreeTag), void* context) {
    const u32 own = pid < kFreePidUnknown ? pid : kNoPid;
    constexpr u32 kRecent = 4;
    FreeTag recent[kRecent] = {};
    u32 next = 0;
    FreeTag last = 0;
    auto consider = [&](FreeTag tag) {
        if (tag == last) return;
        last = tag;
        if (tag == 0 || free_tag_pid(tag) == own) return;
        for (FreeTag r : recent)
            if (r == tag) return;
        recent[next++ % kRecent] = tag;
        visit(context, tag);
    };
    for_each_region(lo, hi, false, [&](Shadow& entry, u64 from, u64 to) {
        const u64 e = entry.load(std::memory_order_acquire);
        if (e == 0) {
            last = 0;
        } else if (!is_page(e)) {
            consider(e >> 1);
        } else {
            const Shadow* page = reinterpret_cast<const Shadow*>(e);
            for (u64 g = from; g < to; ++g)
                consider(page[g].load(std::memory_order_relaxed));
        }
        return true;
    });
}

} // namespace frt
