// FlatIdMap (the trace reader's interning table) against std::unordered_map: random keys from a
// small range (many repeats), keys that share their home slot (multiples of a power of two
// above the hash's bits), assign over existing and new keys, lookups of absent keys, across
// the table's growth.
#include <gtest/gtest.h>

#include <random>
#include <unordered_map>

#include "flat_id_map.hpp"

namespace firstrace {
namespace {

void expect_same(const FlatIdMap& map, const std::unordered_map<std::uint64_t, std::uint32_t>& ref,
                 std::uint64_t key) {
    const auto it = ref.find(key);
    ASSERT_EQ(map.find(key), it == ref.end() ? FlatIdMap::kAbsent : it->second) << "key " << key;
}

TEST(FlatIdMap, MatchesUnorderedMapThroughGrowth) {
    std::mt19937_64 rng(20261123);
    for (int round = 0; round < 20; ++round) {
        FlatIdMap map;
        std::unordered_map<std::uint64_t, std::uint32_t> ref;
        const std::uint64_t range = round % 2 == 0 ? 5000 : 1ull << 40;
        const unsigned shift = round % 3 == 0 ? 40 : 0; // round 0, 3, ...: colliding homes
        std::uniform_int_distribution<std::uint64_t> key_of(0, range);
        for (std::uint32_t step = 0; step < 20000; ++step) {
            const std::uint64_t key = key_of(rng) << shift;
            const std::uint32_t id = static_cast<std::uint32_t>(rng() % 0xfffffffeu);
            switch (rng() % 3) {
            case 0: {
                const auto [got, inserted] = map.try_emplace(key, id);
                const auto [it, ref_inserted] = ref.try_emplace(key, id);
                ASSERT_EQ(inserted, ref_inserted) << "key " << key;
                ASSERT_EQ(got, it->second) << "key " << key;
                break;
            }
            case 1:
                map.assign(key, id);
                ref[key] = id;
                break;
            default:
                expect_same(map, ref, key);
            }
            ASSERT_EQ(map.size(), ref.size());
        }
        for (const auto& [key, id] : ref)
            ASSERT_EQ(map.find(key), id);
        map.clear();
        EXPECT_EQ(map.size(), 0u);
        EXPECT_EQ(map.find(ref.begin()->first), FlatIdMap::kAbsent);
    }
}

} // namespace
} // namespace firstrace
