// The granules the apparent-race sweep keeps (shared_granules.hpp) against a brute-force map of
// granules: kept iff two slots touch it and one access writes, clip() the intersection with
// them, and everything kept past the limits.
#include "shared_granules.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <vector>

namespace firstrace {
namespace {

TEST(SharedGranules, KeepsTheGranulesOfTwoSlotsOneWritingAndClipsToThem) {
    for (std::uint64_t seed = 1; seed <= 300; ++seed) {
        std::mt19937_64 rng(seed * 131 + 7);
        auto pick = [&](std::uint64_t lo, std::uint64_t hi) {
            return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng);
        };
        const auto bits = static_cast<std::uint32_t>(pick(0, 5));
        const std::uint64_t space = pick(16, 600);
        // addresses near 2^64 on a seed in five: the last granule ends at 2^64 - 1
        const std::uint64_t base = seed % 5 == 0 ? ~std::uint64_t(0) - space - 128 : pick(0, 1000);
        const auto slots = static_cast<std::uint32_t>(pick(1, 4));
        SharedGranules shared(bits);
        struct Mark {
            std::set<std::uint32_t> slots;
            bool written = false;
        };
        std::map<std::uint64_t, Mark> brute; // granule -> who touched it
        std::vector<std::uint32_t> order(pick(1, 12));
        for (auto& s : order)
            s = static_cast<std::uint32_t>(pick(0, slots - 1));
        for (const std::uint32_t slot : order) { // a slot's ranges come together
            const std::uint64_t n = pick(0, 30);
            for (std::uint64_t i = 0; i < n; ++i) {
                const std::uint64_t lo = base + pick(0, space - 1);
                const std::uint64_t hi = lo + pick(0, 3) * pick(0, 6); // some empty
                const bool writes = pick(0, 3) == 0;
                shared.touch(slot, lo, hi, writes);
                for (std::uint64_t b = lo; b < hi; ++b) {
                    Mark& m = brute[b >> bits];
                    m.slots.insert(slot);
                    m.written = m.written || writes;
                }
            }
        }
        shared.finish();
        ASSERT_FALSE(shared.keeps_all());
        auto kept_byte = [&](std::uint64_t b) {
            const auto it = brute.find(b >> bits);
            return it != brute.end() && it->second.slots.size() >= 2 && it->second.written;
        };
        // the kept intervals: ascending, disjoint, not adjacent, exactly the kept granules
        std::uint64_t kept_bytes = 0;
        for (std::size_t i = 0; i < shared.kept().size(); ++i) {
            const Interval k = shared.kept()[i];
            ASSERT_LT(k.lo, k.hi);
            if (i > 0) {
                ASSERT_LT(shared.kept()[i - 1].hi, k.lo);
            }
            EXPECT_TRUE(kept_byte(k.lo));
            EXPECT_TRUE(kept_byte(k.hi - 1));
            EXPECT_EQ(k.lo % (std::uint64_t(1) << bits), 0u);
            kept_bytes += k.hi - k.lo;
        }
        std::uint64_t expected_bytes = 0;
        for (const auto& [gr, m] : brute)
            if (m.slots.size() >= 2 && m.written)
                expected_bytes += (std::uint64_t(1) << bits) - (gr == ~std::uint64_t(0) >> bits);
        EXPECT_EQ(kept_bytes, expected_bytes) << "seed " << seed;
        // clip, in any order of ranges, against the bytes one by one
        for (int q = 0; q < 200; ++q) {
            const std::uint64_t lo = base + pick(0, space + 20) - 10;
            const std::uint64_t hi = lo + pick(1, 80);
            std::vector<Interval> parts;
            shared.clip(lo, hi, [&](std::uint64_t a, std::uint64_t b) { parts.push_back({a, b}); });
            std::vector<Interval> expected;
            for (std::uint64_t b = lo; b < hi && b >= lo; ++b)
                if (kept_byte(b)) {
                    if (!expected.empty() && expected.back().hi == b)
                        ++expected.back().hi;
                    else
                        expected.push_back({b, b + 1});
                }
            ASSERT_EQ(parts, expected) << "seed " << seed << " [" << lo << ", " << hi << ")";
        }
    }
}

TEST(SharedGranules, KeepsEverythingOffOrPastItsLimits) {
    SharedGranules off(SharedGranules::kOff);
    EXPECT_TRUE(off.keeps_all());
    std::vector<Interval> parts;
    off.clip(5, 9, [&](std::uint64_t a, std::uint64_t b) { parts.push_back({a, b}); });
    EXPECT_EQ(parts, (std::vector<Interval>{{5, 9}}));

    SharedGranules wide(0); // a range over more granules than a map should hold
    wide.touch(0, 0, 4, true);
    wide.touch(1, 0, SharedGranules::kMostGranulesPerRange + 1, false);
    wide.finish();
    EXPECT_TRUE(wide.keeps_all());
}

} // namespace
} // namespace firstrace
