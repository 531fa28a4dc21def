// PageArray (a column grown in place by mremap) against a std::vector of the same values: growth
// across small and huge-page sizes, element types whose size does not divide a page, copies,
// moves, reserve and clear.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "firstrace/page_array.hpp"

namespace firstrace {
namespace {

struct Twelve {
    std::uint32_t x, y, z;
};

template <class A, class V> void expect_same(const A& got, const V& want) {
    ASSERT_EQ(got.size(), want.size());
    EXPECT_EQ(got.empty(), want.empty());
    ASSERT_GE(got.capacity(), got.size());
    for (std::size_t i = 0; i < want.size(); ++i)
        ASSERT_EQ(got[i], want[i]) << "element " << i;
    std::size_t i = 0;
    for (const auto& v : got)
        ASSERT_EQ(v, want[i++]);
}

TEST(PageArray, ShrinkToFitKeepsTheValuesAndGivesBackTheTail) {
    std::mt19937_64 rng(11);
    for (const std::size_t n :
         {std::size_t(0), std::size_t(1), std::size_t(1025), (std::size_t(1) << 22) + 7}) {
        PageArray<std::uint32_t> array;
        std::vector<std::uint32_t> want;
        for (std::size_t i = 0; i < n; ++i) {
            const auto v = static_cast<std::uint32_t>(rng());
            array.push_back(v);
            want.push_back(v);
        }
        array.reserve(4 * n + 4096); // a tail to give back
        array.shrink_to_fit();
        expect_same(array, want);
        // Within one page (or one huge page for large arrays) of the values.
        EXPECT_LT(array.capacity() * sizeof(std::uint32_t),
                  n * sizeof(std::uint32_t) + (n > (std::size_t(1) << 20) ? (1u << 21) : 4096u));
        if (n == 0) {
            EXPECT_EQ(array.capacity(), 0u);
        }
        array.push_back(42); // grows again after the shrink
        want.push_back(42);
        expect_same(array, want);
    }
}

TEST(PageArray, GrowsInPlaceAndReadsBackAsAVector) {
    std::mt19937_64 rng(7);
    PageArray<std::uint32_t> array;
    std::vector<std::uint32_t> want;
    // 2^23 words = 32 MiB: past the huge-page threshold, several remaps.
    for (std::size_t i = 0; i < (std::size_t(1) << 23) + 12345; ++i) {
        const auto v = static_cast<std::uint32_t>(rng());
        array.push_back(v);
        want.push_back(v);
        if ((i & (i + 1)) == 0) { // at each power of two: the prefix so far is intact
            ASSERT_EQ(array.back(), v);
            ASSERT_EQ(array[i / 2], want[i / 2]);
        }
    }
    expect_same(array, want);

    PageArray<std::uint32_t> copy(array);
    expect_same(copy, want);
    copy[5] ^= 1;
    EXPECT_EQ(array[5], want[5]) << "a copy shares nothing";
    PageArray<std::uint32_t> moved(std::move(array));
    expect_same(moved, want);
    EXPECT_TRUE(array.empty()); // NOLINT(bugprone-use-after-move): moved-from is empty
    array = std::move(moved);
    expect_same(array, want);
    array.clear();
    EXPECT_TRUE(array.empty());
    array.push_back(3);
    expect_same(array, std::vector<std::uint32_t>{3});
}

TEST(PageArray, RecordsAndBytesOfEverySize) {
    PageArray<Twelve> records;
    std::vector<Twelve> want;
    records.reserve(10);
    for (std::uint32_t i = 0; i < 3'000'000; ++i) {
        records.push_back({i, i * 3, ~i});
        want.push_back({i, i * 3, ~i});
    }
    ASSERT_EQ(records.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i)
        ASSERT_TRUE(records[i].x == want[i].x && records[i].y == want[i].y &&
                    records[i].z == want[i].z);
    PageArray<std::uint8_t> bytes{1, 2, 3};
    expect_same(bytes, std::vector<std::uint8_t>{1, 2, 3});
    bytes = {4};
    expect_same(bytes, std::vector<std::uint8_t>{4});
    PageArray<std::uint8_t> none;
    EXPECT_EQ(none.begin(), none.end());
    PageArray<std::uint8_t> copy_of_none(none);
    EXPECT_TRUE(copy_of_none.empty());
}

} // namespace
} // namespace firstrace
