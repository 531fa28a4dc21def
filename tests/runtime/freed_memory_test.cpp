// The shadow of freed memory (tracer/src/rt_freed_memory.*) against a brute-force reference:
// a map from 16-byte granule to the tag of the free that last covered it. Random frees and
// scans over a few MiB that straddle region and directory borders, with ranges from one
// granule to several whole regions (whole-region tags, their conversion to shadow pages).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "rt_freed_memory.hpp"

namespace {

using frt::FreeTag;
using frt::u32;
using frt::u64;

constexpr u64 kGranule = 16;
constexpr u64 kMiB = u64{1} << 20;

struct Reference {
    u64 base;
    std::vector<FreeTag> granules; // tag per granule of [base, base + span)
    Reference(u64 b, u64 span) : base(b), granules(span / kGranule, 0) {}
    void mark(u64 lo, u64 hi, FreeTag tag) {
        for (u64 g = (lo - base) / kGranule; g < (hi - base + kGranule - 1) / kGranule; ++g)
            granules[g] = tag;
    }
    std::set<FreeTag> others(u64 lo, u64 hi, u32 pid) const {
        std::set<FreeTag> out;
        for (u64 g = (lo - base) / kGranule; g < (hi - base + kGranule - 1) / kGranule; ++g)
            if (granules[g] != 0 && frt::free_tag_pid(granules[g]) != pid) out.insert(granules[g]);
        return out;
    }
};

std::vector<FreeTag> scan(u64 lo, u64 hi, u32 pid) {
    std::vector<FreeTag> seen;
    frt::freed_memory_scan(
        lo, hi, pid,
        [](void* out, FreeTag tag) { static_cast<std::vector<FreeTag>*>(out)->push_back(tag); },
        &seen);
    return seen;
}

void differential(u64 base, u64 span, unsigned seed) {
    std::mt19937_64 rng(seed);
    Reference ref(base, span);
    for (int step = 0; step < 3000; ++step) {
        const u64 lo = base + (rng() % (span / kGranule)) * kGranule;
        u64 size;
        switch (rng() % 4) {
        case 0:
            size = kGranule * (1 + rng() % 4);
            break; // a small block
        case 1:
            size = kGranule * (1 + rng() % 4096);
            break; // up to 64 KiB
        case 2:
            size = kMiB * (1 + rng() % 3);
            break; // whole regions (if aligned)
        default:
            size = 8 + rng() % 5000;
            break; // unaligned end
        }
        const u64 start = rng() % 8 == 0 ? lo & ~(kMiB - 1) : lo; // region-aligned at times
        const u64 hi = std::min(start + size, base + span);
        const u32 pid = static_cast<u32>(rng() % 4);
        if (rng() % 2 == 0) {
            const FreeTag tag = frt::new_free_tag(pid);
            ASSERT_NE(tag, 0u);
            ASSERT_EQ(frt::free_tag_pid(tag), pid);
            frt::freed_memory_mark(start, hi, tag);
            ref.mark(start, hi, tag);
        } else {
            const std::vector<FreeTag> seen = scan(start, hi, pid);
            const std::set<FreeTag> expected = ref.others(start, hi, pid);
            EXPECT_EQ(std::set<FreeTag>(seen.begin(), seen.end()), expected)
                << "step " << step << " [" << std::hex << start << ", " << hi << ")";
            for (FreeTag t : seen)
                EXPECT_NE(frt::free_tag_pid(t), pid);
        }
    }
}

TEST(FreedMemoryShadow, MatchesBruteForceAcrossRegions) {
    differential(0x5555'0000'0000ull - 3 * kMiB, 6 * kMiB, 1);
}

// 32 GiB border: two directories.
TEST(FreedMemoryShadow, MatchesBruteForceAcrossDirectories) {
    differential((u64{1} << 35) * 5 - 2 * kMiB, 4 * kMiB, 2);
}

TEST(FreedMemoryShadow, NothingFreedNothingFound) {
    EXPECT_TRUE(scan(0x7000'0000'0000ull, 0x7000'0000'0000ull + 64 * kMiB, 1).empty());
    // beyond the 47-bit user address space: not tracked, no crash
    frt::freed_memory_mark(u64{1} << 47, (u64{1} << 47) + kMiB, frt::new_free_tag(1));
    EXPECT_TRUE(scan(u64{1} << 47, (u64{1} << 47) + kMiB, 2).empty());
}

TEST(FreedMemoryShadow, TagsAreUniqueAndCarryTheirProcess) {
    std::set<u64> ids;
    for (u32 i = 0; i < 10000; ++i) {
        const FreeTag tag = frt::new_free_tag(i % 7);
        EXPECT_EQ(frt::free_tag_pid(tag), i % 7);
        EXPECT_TRUE(ids.insert(frt::free_tag_id(tag)).second);
    }
    // process ids beyond the tag's field are "unknown": never taken for the scanner's own
    EXPECT_EQ(frt::free_tag_pid(frt::new_free_tag(1u << 23)), frt::kFreePidUnknown);
}

} // namespace
