// The reader's in-place compaction of the range table (range_compaction.hpp) and the storage of
// the model's site and range tables (mapped_array.hpp), against plain vectors: random layouts of
// sites whose ranges stay where they were read, were rewritten there with fewer ranges, or were
// appended past the ranges read (in any site order, some more than once), and new sites with
// appended ranges; packed and wide intervals. Every site's ranges must read back in site order.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "firstrace/mapped_array.hpp"
#include "firstrace/range_table.hpp"
#include "range_compaction.hpp"

namespace firstrace {
namespace {

Interval some_interval(std::mt19937_64& rng) {
    const std::uint64_t lo = std::uniform_int_distribution<std::uint64_t>(0, 1u << 20)(rng);
    const bool wide = rng() % 5 == 0; // a lifetime key or a long range: the side array
    if (wide && rng() % 2 == 0)
        return {lo | (std::uint64_t{3} << 47), (lo | (std::uint64_t{3} << 47)) + 8};
    return {lo, lo + (wide ? 70000 : 1 + rng() % 64)};
}

TEST(RangeCompaction, EverySiteKeepsItsRangesInSiteOrder) {
    std::mt19937_64 rng(20261125);
    for (int round = 0; round < 400; ++round) {
        const auto read_sites = static_cast<std::uint32_t>(rng() % 40);
        RangeTable table;
        std::vector<std::vector<Interval>> expected; // per site, its ranges now
        std::vector<RangeSpan> spans;
        for (std::uint32_t s = 0; s < read_sites; ++s) {
            const auto n = static_cast<std::uint32_t>(rng() % 5);
            spans.push_back({static_cast<std::uint32_t>(table.size()), n});
            expected.emplace_back();
            for (std::uint32_t k = 0; k < n; ++k) {
                expected.back().push_back(some_interval(rng));
                table.push_back(expected.back().back());
            }
        }
        const std::size_t in_order = table.size();
        const int changes = static_cast<int>(rng() % 30);
        for (int c = 0; c < changes; ++c) {
            if (rng() % 4 == 0) { // a new site (a copy of a run), its ranges appended
                const auto n = static_cast<std::uint32_t>(rng() % 4);
                spans.push_back({static_cast<std::uint32_t>(table.size()), n});
                expected.emplace_back();
                for (std::uint32_t k = 0; k < n; ++k) {
                    expected.back().push_back(some_interval(rng));
                    table.push_back(expected.back().back());
                }
                continue;
            }
            if (spans.empty()) continue;
            const auto s = static_cast<std::uint32_t>(rng() % spans.size());
            const auto n = static_cast<std::uint32_t>(rng() % 6);
            std::vector<Interval> now;
            for (std::uint32_t k = 0; k < n; ++k)
                now.push_back(some_interval(rng));
            RangeSpan& x = spans[s];
            if (n <= x.count) { // in place
                for (std::uint32_t k = 0; k < n; ++k)
                    table.set(x.first + k, now[k]);
                x.count = n;
            } else { // appended
                x = {static_cast<std::uint32_t>(table.size()), n};
                for (const Interval& i : now)
                    table.push_back(i);
            }
            expected[s] = now;
        }
        std::vector<std::uint32_t> firsts(spans.size(), ~0u);
        std::uint32_t next_first = 0;
        const std::size_t used = compact_ranges_in_place(
            table, static_cast<std::uint32_t>(spans.size()), in_order,
            [&](std::uint32_t s) {
                EXPECT_EQ(firsts[s], ~0u) << "asked for a site already placed";
                return spans[s];
            },
            [&](std::uint32_t s, std::uint32_t first) {
                EXPECT_EQ(first, next_first);
                firsts[s] = first;
                next_first += static_cast<std::uint32_t>(expected[s].size());
            });
        std::vector<Interval> want;
        for (const auto& e : expected)
            want.insert(want.end(), e.begin(), e.end());
        ASSERT_EQ(used, want.size()) << "round " << round;
        ASSERT_EQ(table.size(), want.size()) << "round " << round;
        for (std::size_t r = 0; r < want.size(); ++r)
            ASSERT_EQ(table[r], want[r]) << "round " << round << " range " << r;
        std::size_t wide = 0;
        for (const Interval& i : want)
            wide += !(i.lo < (std::uint64_t{1} << 48) && i.hi - i.lo < 0xffff);
        EXPECT_LE(table.wide_count(), wide + wide / 3 + 1) << "unused wide intervals kept";
    }
}

TEST(MappedArray, MatchesVectorThroughAppendsTruncationsAndResizes) {
    std::mt19937_64 rng(7);
    MappedArray<std::uint64_t> array;
    std::vector<std::uint64_t> reference;
    for (int step = 0; step < 20000; ++step) {
        const auto op = rng() % 100;
        if (op < 90) {
            const std::uint64_t v = rng();
            array.push_back(v);
            reference.push_back(v);
        } else if (op < 95) {
            const std::size_t n = reference.empty() ? 0 : rng() % (reference.size() + 1);
            array.truncate(n);
            reference.resize(n);
        } else if (op < 98) {
            const std::size_t n = reference.size() + rng() % 3000;
            array.resize(n);
            reference.resize(n);
        } else {
            array.shrink_to_fit();
        }
        ASSERT_EQ(array.size(), reference.size());
        ASSERT_GE(array.capacity(), array.size());
    }
    for (std::size_t i = 0; i < reference.size(); ++i)
        ASSERT_EQ(array[i], reference[i]) << i;
    MappedArray<std::uint64_t> moved = std::move(array);
    EXPECT_EQ(moved.size(), reference.size());
}

TEST(MappedArray, GrowsLargeArraysByASixteenth) {
    MappedArray<std::uint64_t> array;
    constexpr std::size_t kLarge = (std::size_t(96) << 20) / sizeof(std::uint64_t); // 96 MiB
    array.resize(kLarge);
    array.shrink_to_fit();
    const std::size_t before = array.capacity();
    while (array.size() < before + 1)
        array.push_back(1);
    EXPECT_LE(array.capacity(), before + before / 16 + (std::size_t(2) << 20) / 8);
    EXPECT_GT(array.capacity(), before + before / 32);
}

} // namespace
} // namespace firstrace
