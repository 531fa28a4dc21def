// The pieces of the text report's race-site ranking (report_site_rank_table.hpp,
// report_site_nodes.hpp) against brute force: SiteRankTable's minima, with the settled bytes
// skipping most additions, equal a map of every addition folded (dense and hashed end pairs,
// partitions the byte holds and partitions it cannot, additions between settle() calls that
// bring smaller races); the galloping merge finds exactly the segments two sorted lists share,
// for lists of very different lengths. The whole ranking is compared with the model grouping
// in tests/store/listed_race_sites_test.cpp.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "report_site_nodes.hpp"
#include "report_site_rank_table.hpp"

namespace firstrace {
namespace {

void expect_same(const SiteRankKey& x, const SiteRankKey& y) {
    EXPECT_EQ(x.smallest_race, y.smallest_race);
    EXPECT_EQ(x.first_partition, y.first_partition);
    EXPECT_EQ(x.in_first_partition, y.in_first_partition);
}

TEST(SiteRankTable, MinimaEqualEveryAdditionFolded) {
    std::mt19937_64 rng(20261124);
    auto pick = [&](std::uint32_t n) {
        return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng);
    };
    for (int round = 0; round < 24; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        // Dense below 2 048 ends, hashed above; partitions within the settled byte (< 127) or
        // beyond it; few or many additions per settle().
        const std::uint32_t ends = round % 3 == 0 ? 3000 : round % 3 == 1 ? 40 : 7;
        const std::uint32_t partitions = round % 2 == 0 ? 20 : 400;
        const std::uint32_t per_epoch = round % 4 < 2 ? 3 : 200;
        SiteRankTable table(ends);
        std::map<std::pair<std::uint32_t, std::uint32_t>, SiteRankKey> reference;
        std::uint32_t race = 0;
        for (int epoch = 0; epoch < 300; ++epoch) {
            // Within an epoch, races in any order (a folded block brings its smallest races
            // last); between epochs, larger races only.
            const std::uint32_t base = race;
            const std::uint32_t n = 1 + pick(per_epoch);
            for (std::uint32_t k = 0; k < n; ++k) {
                // Few end pairs, so that most additions hit a site already there.
                const std::uint32_t x = pick(std::min<std::uint32_t>(ends, 30));
                const std::uint32_t y = ends - 1 - pick(std::min<std::uint32_t>(ends, 30));
                const std::uint32_t p =
                    pick(6) == 0 ? kNone : pick(partitions) / (epoch < 150 ? 1 : 3);
                const SiteRankKey key{base + pick(n), p, pick(9) == 0};
                race = std::max(race, key.smallest_race + 1);
                table.add(x, y, key);
                auto [it, inserted] = reference.try_emplace({std::min(x, y), std::max(x, y)}, key);
                if (!inserted) it->second.fold(key);
            }
            table.settle();
        }
        ASSERT_EQ(table.size(), reference.size());
        for (const SiteRankTable::Site& site : table.sites()) {
            ASSERT_LE(site.x, site.y);
            const auto it = reference.find({site.x, site.y});
            ASSERT_NE(it, reference.end());
            expect_same(site.key, it->second);
            EXPECT_EQ(table.sites()[table.find(site.y, site.x)].x, site.x);
        }
        EXPECT_EQ(table.find(ends - 1, ends - 1) == kNone, !reference.count({ends - 1, ends - 1}));
    }
}

struct Item {
    std::uint32_t segment;
};

TEST(SiteNodeIndex, GallopingMergeFindsTheSharedSegments) {
    std::mt19937_64 rng(7);
    for (int round = 0; round < 400; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        // One list long and dense, the other short, or both alike; runs of equal segments.
        auto make = [&](std::size_t n, std::uint32_t range) {
            std::vector<Item> v(n);
            for (Item& i : v)
                i.segment = std::uniform_int_distribution<std::uint32_t>(0, range)(rng);
            std::sort(v.begin(), v.end(),
                      [](const Item& a, const Item& b) { return a.segment < b.segment; });
            return v;
        };
        const std::vector<Item> x = make(round % 5 == 0 ? 0 : 1 + round % 7, 3000);
        const std::vector<Item> y = make(round % 2 == 0 ? 5000 : 1 + round % 11, 3000);
        std::map<std::uint32_t, std::pair<std::size_t, std::size_t>> expected; // run lengths
        for (const Item& i : x)
            ++expected[i.segment].first;
        for (const Item& i : y)
            ++expected[i.segment].second;
        std::erase_if(expected, [](const auto& e) { return !e.second.first || !e.second.second; });
        std::vector<std::pair<std::uint32_t, std::pair<std::size_t, std::size_t>>> found;
        SiteNodeIndex::for_each_shared_segment(
            x.data(), x.data() + x.size(), y.data(), y.data() + y.size(),
            [&](const Item* xs, const Item* xe, const Item* ys, const Item* ye) {
                for (const Item* i = xs; i != xe; ++i)
                    EXPECT_EQ(i->segment, xs->segment);
                for (const Item* i = ys; i != ye; ++i)
                    EXPECT_EQ(i->segment, xs->segment);
                found.push_back({xs->segment, {std::size_t(xe - xs), std::size_t(ye - ys)}});
                return false;
            });
        EXPECT_EQ(found,
                  (std::vector<std::pair<std::uint32_t, std::pair<std::size_t, std::size_t>>>(
                      expected.begin(), expected.end())));
        // skip_to: the first element at or above any segment, from any start.
        if (!y.empty()) {
            const std::size_t from = rng() % y.size();
            const std::uint32_t s = std::uniform_int_distribution<std::uint32_t>(0, 3001)(rng);
            const Item* got = SiteNodeIndex::skip_to(y.data() + from, y.data() + y.size(), s);
            const Item* want = std::partition_point(y.data() + from, y.data() + y.size(),
                                                    [s](const Item& i) { return i.segment < s; });
            EXPECT_EQ(got, want);
        }
    }
}

} // namespace
} // namespace firstrace
