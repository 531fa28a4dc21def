// An event's accesses as uniform intervals (access_intervals.hpp) against the bytes themselves:
// random pieces with random access bits, the OR per byte computed byte by byte.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "access_intervals.hpp"

namespace firstrace {
namespace {

struct Uniform {
    std::uint64_t lo, hi;
    std::uint8_t access;
};

// The maximal intervals of equal nonzero bits of a byte -> bits map.
std::vector<Uniform> reference_intervals(const std::map<std::uint64_t, std::uint8_t>& bytes) {
    std::vector<Uniform> out;
    for (const auto& [v, access] : bytes) {
        if (!out.empty() && out.back().hi == v && out.back().access == access)
            ++out.back().hi;
        else
            out.push_back({v, v + 1, access});
    }
    return out;
}

void expect_intervals(const std::vector<Uniform>& got, const std::vector<Uniform>& expected) {
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].lo, expected[i].lo) << i;
        EXPECT_EQ(got[i].hi, expected[i].hi) << i;
        EXPECT_EQ(got[i].access, expected[i].access) << i;
    }
}

TEST(AccessIntervals, EqualTheBytewiseOrOfPieces) {
    for (std::uint64_t seed = 1; seed <= 2000; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        std::mt19937_64 rng(seed);
        auto pick = [&](std::uint64_t lo, std::uint64_t hi) {
            return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng);
        };
        const std::uint64_t space = pick(4, 200);
        std::vector<AccessPiece> pieces(pick(0, 40));
        std::map<std::uint64_t, std::uint8_t> bytes;
        for (AccessPiece& p : pieces) {
            p.lo = pick(0, space);
            p.hi = p.lo + (pick(0, 9) == 0 ? 0 : pick(1, pick(0, 3) == 0 ? 60 : 6)); // some empty
            p.access = std::uint8_t(pick(0, 15));                                    // 0: no access
            for (std::uint64_t v = p.lo; v < p.hi; ++v)
                if (p.access != 0) bytes[v] |= p.access;
        }
        std::sort(pieces.begin(), pieces.end(),
                  [](const AccessPiece& x, const AccessPiece& y) { return x.lo < y.lo; });
        std::vector<Uniform> got;
        for_each_uniform_interval(pieces,
                                  [&](std::uint64_t lo, std::uint64_t hi, std::uint8_t access) {
                                      got.push_back({lo, hi, access});
                                  });
        expect_intervals(got, reference_intervals(bytes));
    }
}

TEST(AccessIntervals, OfAnEventMergeItsSitesInAnyOrder) {
    // EventAccessIntervals merges the event's ascending runs (a site's sorted ranges): sites
    // given sorted, reversed or shuffled give the bytewise OR all the same.
    for (std::uint64_t seed = 1; seed <= 500; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        std::mt19937_64 rng(seed);
        auto pick = [&](std::uint64_t lo, std::uint64_t hi) {
            return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng);
        };
        Trace trace;
        Event e;
        e.site_count = static_cast<std::uint32_t>(pick(0, 9));
        std::map<std::uint64_t, std::uint8_t> bytes;
        for (std::uint32_t s = 0; s < e.site_count; ++s) {
            AccessSite site;
            site.flags = std::uint8_t(pick(0, 7)); // some neither read nor written: skipped
            site.first_range = static_cast<std::uint32_t>(trace.ranges.size());
            site.range_count = static_cast<std::uint32_t>(pick(1, 30));
            std::vector<Interval> ranges;
            for (std::uint32_t r = 0; r < site.range_count; ++r) {
                const std::uint64_t lo = pick(0, 300);
                ranges.push_back({lo, lo + pick(1, 12)});
                for (std::uint64_t v = lo; v < ranges.back().hi; ++v)
                    if (segment_access(site.flags) != 0) bytes[v] |= segment_access(site.flags);
            }
            switch (pick(0, 2)) {
            case 0:
                std::sort(ranges.begin(), ranges.end(),
                          [](const Interval& x, const Interval& y) { return x.lo < y.lo; });
                break;
            case 1:
                std::sort(ranges.begin(), ranges.end(),
                          [](const Interval& x, const Interval& y) { return x.lo > y.lo; });
                break;
            default:
                break; // as drawn
            }
            for (const Interval& range : ranges)
                trace.ranges.push_back(range);
            trace.sites.push_back(site);
        }
        EventAccessIntervals intervals;
        for (int twice = 0; twice < 2; ++twice) { // the buffers reused
            std::vector<Uniform> got;
            intervals.for_each(trace, e,
                               [&](std::uint64_t lo, std::uint64_t hi, std::uint8_t access) {
                                   got.push_back({lo, hi, access});
                               });
            expect_intervals(got, reference_intervals(bytes));
        }
    }
}

} // namespace
} // namespace firstrace
