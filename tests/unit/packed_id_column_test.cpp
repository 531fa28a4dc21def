// PackedIdColumn (ids in 1, 2 or 4 bytes an entry) against a std::vector of the same ids: the
// width follows the largest id pushed or set, widening keeps every entry, and a column of small
// ids stays one byte an entry.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "firstrace/packed_id_column.hpp"

namespace firstrace {
namespace {

void expect_same(const PackedIdColumn& got, const std::vector<std::uint32_t>& want) {
    ASSERT_EQ(got.size(), want.size());
    EXPECT_EQ(got.empty(), want.empty());
    for (std::size_t i = 0; i < want.size(); ++i)
        ASSERT_EQ(got[i], want[i]) << "entry " << i;
}

unsigned width_for(std::uint32_t largest) {
    return largest <= std::numeric_limits<std::uint8_t>::max()    ? 1
           : largest <= std::numeric_limits<std::uint16_t>::max() ? 2
                                                                  : 4;
}

TEST(PackedIdColumn, WidensWithTheLargestIdAndKeepsEveryEntry) {
    std::mt19937_64 rng(11);
    for (int round = 0; round < 40; ++round) {
        PackedIdColumn column;
        std::vector<std::uint32_t> want;
        if (round % 2 == 0) column.reserve(1000 + round);
        std::uint32_t largest = 0;
        // Ids below a bound that rises in steps across the widths, so that each widening
        // happens with a different prefix length (zero included).
        const std::size_t n = 3000 + rng() % 5000;
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t step = (i + round * 97) / 1500;
            const std::uint64_t bound = step == 0   ? 200
                                        : step == 1 ? 300
                                        : step == 2 ? 70000
                                                    : std::uint64_t(1) << 32;
            const auto id = static_cast<std::uint32_t>(rng() % bound);
            column.push_back(id);
            want.push_back(id);
            largest = std::max(largest, id);
            ASSERT_EQ(column.width(), width_for(largest)) << "after entry " << i;
        }
        expect_same(column, want);
        // Overwriting in place, with ids that may widen the column again.
        for (int k = 0; k < 200; ++k) {
            const std::size_t i = rng() % n;
            const auto id = static_cast<std::uint32_t>(rng() % (k < 150 ? 256 : 100000));
            column.set(i, id);
            want[i] = id;
            largest = std::max(largest, id);
            ASSERT_EQ(column.width(), width_for(largest));
        }
        expect_same(column, want);
    }
}

TEST(PackedIdColumn, SmallIdsTakeOneByteAnEntry) {
    PackedIdColumn column{0, 25, 255, 7};
    EXPECT_EQ(column.width(), 1u);
    expect_same(column, {0, 25, 255, 7});
    column.push_back(256);
    EXPECT_EQ(column.width(), 2u);
    column.push_back(std::numeric_limits<std::uint32_t>::max());
    EXPECT_EQ(column.width(), 4u);
    expect_same(column, {0, 25, 255, 7, 256, std::numeric_limits<std::uint32_t>::max()});
    const PackedIdColumn moved = std::move(column);
    expect_same(moved, {0, 25, 255, 7, 256, std::numeric_limits<std::uint32_t>::max()});
}

} // namespace
} // namespace firstrace
