// The model's compact tables (site_table.hpp, range_table.hpp) against plain vectors of what was
// stored: every interval reads back exactly (ranges of 2^16 bytes and more, of 2^32 and more,
// empty ones, starts at and past 2^48, hi < lo), every site with its location, context, flags
// and range count (none, one, many), through appends, rewrites, truncations and the move from
// the reader's chunked store.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <vector>

#include "chunked_array.hpp"
#include "firstrace/model.hpp"

namespace firstrace {
namespace {

// Intervals of every kind the encoding distinguishes.
Interval random_interval(std::mt19937_64& rng) {
    auto pick = [&](std::uint64_t lo, std::uint64_t hi) {
        return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng);
    };
    constexpr std::uint64_t k48 = std::uint64_t{1} << 48;
    std::uint64_t lo = 0;
    switch (pick(0, 4)) {
    case 0:
        lo = pick(0, 4096);
        break;
    case 1:
        lo = pick(k48 - 70000, k48 + 70000);
        break; // around the start field's end
    case 2:
        lo = pick(0, ~std::uint64_t{0});
        break;
    default:
        lo = pick(0x7f0000000000ull, 0x7fffffffffffull);
        break; // user space
    }
    std::uint64_t length = 0;
    switch (pick(0, 6)) {
    case 0:
        length = 0;
        break;
    case 1:
        length = pick(0xfffd, 0x10001);
        break; // around the length field's escape
    case 2:
        length = pick(std::uint64_t{1} << 32, std::uint64_t{1} << 33);
        break;
    case 3:
        return {lo, lo - pick(1, 100)}; // hi < lo (wraps when lo is small)
    default:
        length = pick(1, 64);
        break;
    }
    return {lo, lo + length};
}

template <class Table> void expect_ranges(const Table& table, const std::vector<Interval>& ref) {
    ASSERT_EQ(table.size(), ref.size());
    for (std::size_t r = 0; r < ref.size(); ++r)
        ASSERT_EQ(table[r], ref[r]) << "range " << r;
}

TEST(RangeTable, EveryIntervalReadsBackAsStored) {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        std::mt19937_64 rng(seed);
        RangeTable table;
        BasicRangeTable<ChunkedArray<std::uint64_t>> chunked;
        std::vector<Interval> ref;
        for (int step = 0; step < 3000; ++step) {
            const std::uint64_t roll = rng() % 100;
            if (roll < 80 || ref.empty()) {
                const Interval x = random_interval(rng);
                table.push_back(x);
                chunked.push_back(x);
                ref.push_back(x);
            } else if (roll < 92) {
                const std::size_t r = rng() % ref.size();
                const Interval x = random_interval(rng);
                table.set(r, x);
                chunked.set(r, x);
                ref[r] = x;
            } else {
                const std::size_t n = ref.size() - rng() % std::min<std::size_t>(ref.size(), 6);
                table.truncate(n);
                chunked.truncate(n);
                ref.resize(n);
            }
        }
        expect_ranges(table, ref);
        expect_ranges(chunked, ref);
        std::vector<Interval> iterated;
        for (const Interval x : table)
            iterated.push_back(x);
        EXPECT_EQ(iterated, ref);
        EXPECT_GT(table.wide_count(), 0u);
        RangeTable moved;
        chunked.move_to(moved);
        expect_ranges(moved, ref);
        EXPECT_EQ(chunked.size(), 0u);
        EXPECT_TRUE(moved == table);
    }
}

TEST(RangeTable, TruncatingDropsTheWideTailOnly) {
    RangeTable table{{0, 1ull << 40}, {5, 9}};
    table.push_back({1, 1ull << 20});
    EXPECT_EQ(table.wide_count(), 2u);
    table.truncate(2); // the last wide entry is dropped with its word
    EXPECT_EQ(table.wide_count(), 1u);
    table.set(0, {7, 8}); // the first one stays, unused: no other word moves
    table.truncate(1);
    EXPECT_EQ(table.wide_count(), 1u);
    EXPECT_EQ(table[0], (Interval{7, 8}));
    table.push_back({0, ~std::uint64_t{0}});
    EXPECT_EQ(table.back(), (Interval{0, ~std::uint64_t{0}}));
    EXPECT_EQ(table.bytes(), 2 * sizeof(std::uint64_t) + 2 * sizeof(Interval));
}

// Sites with 0-3 ranges each, in range order as the readers write them.
TEST(SiteTable, SitesReadBackWithTheirRangeCounts) {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        std::mt19937_64 rng(seed);
        SiteTable table;
        BasicSiteTable<ChunkedArray<SiteRecord>> chunked;
        std::vector<AccessSite> ref;
        std::uint32_t ranges = 0;
        for (int step = 0; step < 5000; ++step) {
            const std::uint64_t roll = rng() % 100;
            if (roll < 85 || ref.empty()) {
                AccessSite site;
                site.location = rng() % 8 == 0 ? kNone : static_cast<std::uint32_t>(rng() % 40);
                site.context = rng() % 4 == 0 ? kNone : static_cast<std::uint32_t>(rng() % 30);
                site.flags = static_cast<std::uint8_t>(1 + rng() % 7);
                site.first_range = ranges;
                site.range_count = static_cast<std::uint32_t>(rng() % 4);
                ranges += site.range_count;
                table.push_back(site);
                chunked.push_back(site);
                ref.push_back(site);
            } else if (roll < 93) {
                const std::size_t s = rng() % ref.size();
                AccessSite site = ref[s];
                site.flags = static_cast<std::uint8_t>(1 + rng() % 7);
                site.location = static_cast<std::uint32_t>(rng() % 40);
                table.set(s, site);
                chunked.set(s, site);
                ref[s] = site;
            } else {
                const std::size_t n = ref.size() - rng() % std::min<std::size_t>(ref.size(), 10);
                table.truncate(n);
                chunked.truncate(n);
                ref.resize(n);
                ranges = ref.empty() ? 0 : ref.back().first_range + ref.back().range_count;
            }
            ASSERT_EQ(table.range_end(), ranges);
        }
        ASSERT_EQ(table.size(), ref.size());
        for (std::size_t s = 0; s < ref.size(); ++s)
            ASSERT_EQ(table[s], ref[s]) << "site " << s;
        EXPECT_LE(table.points().size(), 41u * 31u * 7u);
        SiteTable moved;
        chunked.move_to(moved);
        ASSERT_EQ(moved.size(), ref.size());
        for (std::size_t s = 0; s < ref.size(); ++s)
            ASSERT_EQ(moved[s], ref[s]) << "site " << s;
        EXPECT_EQ(moved.range_end(), ranges);
    }
}

TEST(SiteTable, RangesMustFollowThePreviousSites) {
    SiteTable table{{1, kAccessRead, 0, 2}, {2, kAccessWrite, 2, 0}, {2, kAccessWrite, 2, 1}};
    EXPECT_EQ(table[1].range_count, 0u);
    EXPECT_THROW(table.push_back({1, kAccessRead, 4, 1}), std::invalid_argument); // a gap
    EXPECT_THROW(table.push_back({1, kAccessRead, 2, 1}), std::invalid_argument); // shared
    EXPECT_THROW(table.set(0, {1, kAccessRead, 0, 3}), std::invalid_argument);    // moved
    EXPECT_EQ(table.points().size(), 2u) << "equal location, context and flags: one point";
    table.set_first_range(1, 1); // a pass rewriting the ranges in site order
    table.set_first_range(2, 1);
    table.set_range_end(1);
    EXPECT_EQ(table[0].range_count, 1u);
    EXPECT_EQ(table[1].range_count, 0u);
    EXPECT_EQ(table[2].range_count, 0u);
}

} // namespace
} // namespace firstrace
