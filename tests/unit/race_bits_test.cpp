// RaceBits (direct_dependence_lists.hpp), the per-race bits the dependence lists read in place:
// count, next and end_of_set on every range of random words against the bits one at a time.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "direct_dependence_lists.hpp"

namespace firstrace {
namespace {

TEST(RaceBits, RangeQueriesMatchTheBitsOneAtATime) {
    std::mt19937_64 rng(14);
    for (int round = 0; round < 40; ++round) {
        const std::uint32_t n = 1 + static_cast<std::uint32_t>(rng() % 300);
        RaceBits bits;
        bits.resize_for_overwrite(n);
        const int density = round % 4; // sparse to dense words
        for (std::uint64_t& w : bits.words()) {
            w = rng();
            for (int k = 0; k < density; ++k)
                w &= rng();
        }
        for (std::uint32_t from = 0; from <= n; ++from)
            for (std::uint32_t to = from; to <= n; ++to) {
                std::uint32_t count = 0, next = to, end = from;
                for (std::uint32_t i = from; i < to; ++i)
                    if (bits[i]) {
                        ++count;
                        if (next == to) next = i;
                        end = i + 1;
                    }
                ASSERT_EQ(bits.count(from, to), count) << from << " " << to;
                ASSERT_EQ(bits.next(from, to), next) << from << " " << to;
                ASSERT_EQ(bits.end_of_set(from, to), end) << from << " " << to;
            }
    }
}

} // namespace
} // namespace firstrace
