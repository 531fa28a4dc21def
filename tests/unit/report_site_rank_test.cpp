// The pieces of the text report's race-site ranking (report_site_rank_table.hpp,
// report_site_nodes.hpp, report_site_rank_folder.hpp) against brute force: SiteRankTable's
// minima, with the settled bytes skipping most additions, equal a map of every addition folded
// (dense and hashed end pairs, partitions the byte holds and partitions it cannot, additions
// between settle() calls that bring smaller races); the galloping merge finds exactly the
// segments two sorted lists share, for lists of very different lengths; SiteRankFolder's
// blocks, folded in cells or in pieces, by lookup or by merge, give every race site's minima
// and say which races have an instance (also without folding them), as every pair of nodes
// does; SiteRankTable::may_change says false only when no addition with the end would change
// a site. The whole ranking is compared with the model grouping in
// tests/store/listed_race_sites_test.cpp.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <tuple>

#include "report_site_nodes.hpp"
#include "report_site_rank_folder.hpp"
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

// may_change(y, key) false only when adding key with any other end x would change no race
// site: checked against the folded reference for every x, on few ends (so that every end pair
// gets settled and the answer is often false), races ascending between settle() calls.
TEST(SiteRankTable, MayChangeFalseOnlyWhenNoSiteOfTheEndWouldChange) {
    std::mt19937_64 rng(1124);
    auto pick = [&](std::uint32_t n) {
        return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng);
    };
    std::size_t unchanged = 0, changing = 0;
    for (int round = 0; round < 40; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        const std::uint32_t ends = 2 + pick(6);
        const std::uint32_t partitions = round % 2 == 0 ? 8 : 300; // also beyond the byte
        SiteRankTable table(ends);
        std::map<std::pair<std::uint32_t, std::uint32_t>, SiteRankKey> reference;
        std::uint32_t race = 0;
        auto random_key = [&] {
            return SiteRankKey{race + pick(3), pick(8) == 0 ? kNone : pick(partitions),
                               pick(6) == 0};
        };
        for (int epoch = 0; epoch < 60; ++epoch) {
            // Races of this epoch are at least `race` (larger than every settled one).
            for (std::uint32_t y = 0; y < ends; ++y) {
                const SiteRankKey key = random_key();
                bool would_change = false;
                for (std::uint32_t x = 0; x < ends; ++x) {
                    const auto it = reference.find({std::min(x, y), std::max(x, y)});
                    if (it == reference.end()) {
                        would_change = true;
                        continue;
                    }
                    SiteRankKey folded = it->second;
                    folded.fold(key);
                    would_change |= folded.first_partition != it->second.first_partition ||
                                    folded.in_first_partition != it->second.in_first_partition ||
                                    folded.smallest_race != it->second.smallest_race;
                }
                if (!table.may_change(y, key)) {
                    EXPECT_FALSE(would_change) << "end " << y;
                    ++unchanged;
                } else {
                    changing += would_change;
                }
            }
            const std::uint32_t n = 1 + pick(6);
            std::uint32_t largest = race;
            for (std::uint32_t k = 0; k < n; ++k) {
                const std::uint32_t x = pick(ends), y = pick(ends);
                SiteRankKey key = random_key();
                key.first_partition = pick(8) == 0 ? kNone : pick(partitions) / (1 + epoch / 20);
                largest = std::max(largest, key.smallest_race + 1);
                table.add(x, y, key);
                auto [it, inserted] = reference.try_emplace({std::min(x, y), std::max(x, y)}, key);
                if (!inserted) it->second.fold(key);
            }
            race = largest;
            table.settle();
        }
    }
    EXPECT_GT(unchanged, 500u) << "the end floors must say false often";
    EXPECT_GT(changing, 100u);
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

TEST(SiteRankFolder, BlocksFoldEveryCompatiblePairOfNodes) {
    std::mt19937_64 rng(1124);
    auto pick = [&](std::uint32_t n) {
        return std::uniform_int_distribution<std::uint32_t>(0, n - 1)(rng);
    };
    using Node = SiteNodeIndex::Node;
    // An event's nodes: distinct (segment, end, class), sorted.
    auto make = [&](std::size_t n, std::uint32_t segments, std::uint32_t ends) {
        std::vector<Node> v(n);
        for (Node& x : v)
            x = {pick(segments), pick(ends) << 2 | pick(4)};
        std::sort(v.begin(), v.end(), [](const Node& x, const Node& y) {
            return std::tie(x.segment, x.end_class) < std::tie(y.segment, y.end_class);
        });
        v.erase(std::unique(v.begin(), v.end(),
                            [](const Node& x, const Node& y) {
                                return x.segment == y.segment && x.end_class == y.end_class;
                            }),
                v.end());
        return v;
    };
    std::size_t blocks_with_hits = 0, races_without_instance = 0;
    for (int round = 0; round < 60; ++round) {
        SCOPED_TRACE("round " + std::to_string(round));
        // Few ends and segments (cells, found by lookup or, for long b, by merge), or so many
        // ends that a block's table exceeds the cells (pieces).
        const std::uint32_t segments = round % 3 == 0 ? 4 : round % 3 == 1 ? 60 : 5000;
        const std::uint32_t ends = round % 2 == 0 ? 9 : 20000;
        SiteRankFolder folder(segments, ends);
        std::map<std::pair<std::uint32_t, std::uint32_t>, SiteRankKey> got, want;
        std::uint32_t race = 0;
        for (int block = 0; block < 12; ++block) {
            const std::vector<Node> a = make(1 + pick(round % 4 == 0 ? 120 : 12), segments, ends);
            folder.begin(a.data(), a.data() + a.size());
            std::map<std::uint32_t, std::vector<Node>> a_on; // a's nodes by segment
            for (const Node& x : a)
                a_on[x.segment].push_back(x);
            const std::uint32_t n = 1 + pick(40);
            // The folder keeps pointers into the b lists until the join (they are the index's).
            std::vector<std::vector<Node>> bs(n);
            for (std::uint32_t r = 0; r < n; ++r) {
                const std::vector<Node>& b = bs[r] =
                    make(pick(5) == 0 ? 500 + pick(600) : pick(15), segments, ends);
                const SiteRankKey key{race++, pick(7) == 0 ? kNone : pick(50), pick(5) == 0};
                bool instance = false;
                for (const Node& y : b)
                    for (const Node& x : a_on[y.segment])
                        if (SiteNodeIndex::compatible(x.cls(), y.cls())) {
                            instance = true;
                            auto [it, inserted] = want.try_emplace({x.end(), y.end()}, key);
                            if (!inserted) it->second.fold(key);
                        }
                EXPECT_EQ(folder.instance(b.data(), b.data() + b.size()), instance);
                EXPECT_EQ(folder.fold(b.data(), b.data() + b.size(), key), instance);
                races_without_instance += !instance;
            }
            bool any = false;
            folder.join(
                [&](std::uint32_t x, std::uint32_t y, const SiteRankKey& key) {
                    any = true;
                    auto [it, inserted] = got.try_emplace({x, y}, key);
                    if (!inserted) it->second.fold(key);
                },
                [](std::uint32_t, const SiteRankKey&) { return true; });
            blocks_with_hits += any;
        }
        ASSERT_EQ(got.size(), want.size());
        for (const auto& [pair, key] : want) {
            const auto it = got.find(pair);
            ASSERT_NE(it, got.end());
            expect_same(it->second, key);
        }
    }
    EXPECT_GT(blocks_with_hits, 100u);
    EXPECT_GT(races_without_instance, 100u);
}

} // namespace
} // namespace firstrace
