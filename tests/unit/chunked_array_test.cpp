// ChunkedArray (the reader's store of access sites and ranges) against std::vector: appends
// across block borders, truncations to inside, onto and past a border, element writes, and the
// move into the model's vector.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "chunked_array.hpp"
#include "firstrace/model.hpp"

namespace firstrace {
namespace {

TEST(ChunkedArray, MatchesVectorThroughAppendsAndTruncations) {
    std::mt19937_64 rng(20261124);
    ChunkedArray<Interval> array;
    std::vector<Interval> ref;
    constexpr std::size_t kBlock = std::size_t{1} << 18; // ChunkedArray's block size
    for (int step = 0; step < 40; ++step) {
        const std::size_t appended = rng() % kBlock;
        for (std::size_t i = 0; i < appended; ++i) {
            const Interval x{rng(), rng()};
            array.push_back(x);
            ref.push_back(x);
        }
        if (step % 5 == 0) { // truncate: to a border, just past one, or anywhere
            const std::size_t border = (ref.size() / kBlock) * kBlock;
            const std::size_t n = step % 2 == 0 ? border : std::min(ref.size(), border + 1);
            array.truncate(n);
            ref.resize(n);
        }
        const std::size_t k = rng() % (ref.size() + 1);
        if (k < ref.size()) {
            array[k].lo = ref[k].lo = rng();
        }
        ASSERT_EQ(array.size(), ref.size());
        for (std::size_t i = 0; i < ref.size(); i += 1 + rng() % 97)
            ASSERT_EQ(array[i], ref[i]) << "element " << i;
    }
    ASSERT_GT(ref.size(), 2 * kBlock); // several blocks
    std::vector<Interval> out{{1, 2}};
    array.move_to(out);
    EXPECT_EQ(array.size(), 0u);
    ASSERT_EQ(out.size(), ref.size() + 1);
    EXPECT_EQ(out.front(), (Interval{1, 2}));
    EXPECT_TRUE(std::equal(ref.begin(), ref.end(), out.begin() + 1));
}

} // namespace
} // namespace firstrace
