// ReusedPages: inside a scope a large PageArray freed leaves its pages to the next large ones
// (a smaller one takes the front of the mapping, a larger one pieces of several, the rest
// fresh), small ones and those freed outside a scope are unmapped, and the scope's end unmaps
// what is left.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "firstrace/page_array.hpp"
#include "firstrace/reused_pages.hpp"

namespace firstrace {
namespace {

constexpr std::size_t kLarge = ReusedPages::kSmallest / sizeof(std::uint32_t) + 1000;

PageArray<std::uint32_t> filled(std::size_t n) {
    PageArray<std::uint32_t> a;
    a.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        a.push_back(static_cast<std::uint32_t>(i * 7));
    return a;
}

TEST(ReusedPages, ALargeArrayFreedInAScopeIsTakenByTheNext) {
    {
        const ReusedPages::Scope scope;
        const void* freed = nullptr;
        {
            const PageArray<std::uint32_t> a = filled(kLarge);
            freed = a.data();
        }
        const std::size_t kept = ReusedPages::kept_bytes();
        EXPECT_GE(kept, kLarge * sizeof(std::uint32_t));
        // A smaller array of another type takes the front of it; the rest stays kept.
        PageArray<std::uint8_t> b;
        b.reserve(ReusedPages::kSmallest + 12345);
        EXPECT_EQ(static_cast<const void*>(b.data()), freed);
        EXPECT_EQ(ReusedPages::kept_bytes(), kept - b.capacity());
        for (std::size_t i = 0; i < ReusedPages::kSmallest + 12345; ++i)
            b.push_back(static_cast<std::uint8_t>(i));
        for (std::size_t i = 0; i < b.size(); i += 4099)
            ASSERT_EQ(b[i], static_cast<std::uint8_t>(i));
        // A larger one is made of both pieces and fresh pages: what it writes is what it reads.
        { const PageArray<std::uint8_t> gone = std::move(b); }
        EXPECT_EQ(ReusedPages::kept_bytes(), kept);
        const PageArray<std::uint32_t> c = filled(2 * kLarge);
        EXPECT_EQ(ReusedPages::kept_bytes(), 0u);
        for (std::size_t i = 0; i < c.size(); i += 4099)
            ASSERT_EQ(c[i], static_cast<std::uint32_t>(i * 7));
        // Small arrays are not kept; a kept one is unmapped when the scope ends.
        { const PageArray<std::uint32_t> small = filled(1000); }
        EXPECT_EQ(ReusedPages::kept_bytes(), 0u);
        // Arrays below kSmallest take kept pages from kSmallestTaken on, not below; freed,
        // they are unmapped.
        { const PageArray<std::uint32_t> d = filled(kLarge); }
        const std::size_t kept_large = ReusedPages::kept_bytes();
        {
            PageArray<std::uint8_t> tiny;
            tiny.reserve(ReusedPages::kSmallestTaken - 4096);
            EXPECT_EQ(ReusedPages::kept_bytes(), kept_large);
            PageArray<std::uint8_t> medium;
            medium.assign(ReusedPages::kSmallestTaken, 7);
            EXPECT_EQ(ReusedPages::kept_bytes(), kept_large - ReusedPages::kSmallestTaken);
            EXPECT_EQ(medium[ReusedPages::kSmallestTaken - 1], 7);
        }
        EXPECT_EQ(ReusedPages::kept_bytes(), kept_large - ReusedPages::kSmallestTaken);
        { const PageArray<std::uint32_t> d = filled(kLarge); }
        EXPECT_GT(ReusedPages::kept_bytes(), 0u);
    }
    EXPECT_EQ(ReusedPages::kept_bytes(), 0u);
    { const PageArray<std::uint32_t> outside = filled(kLarge); }
    EXPECT_EQ(ReusedPages::kept_bytes(), 0u);
}

TEST(ReusedPages, PiecesOfSeveralMappingsMakeOneArray) {
    const ReusedPages::Scope scope;
    std::size_t freed = 0;
    {
        std::vector<PageArray<std::uint32_t>> arrays;
        for (const std::size_t n : {kLarge, 3 * kLarge, 2 * kLarge}) {
            arrays.push_back(filled(n));
            freed += arrays.back().capacity() * sizeof(std::uint32_t);
        }
    }
    EXPECT_EQ(ReusedPages::kept_bytes(), freed);
    // Smaller than all three together: pieces of the largest first, the last one cut.
    PageArray<std::uint64_t> a;
    a.assign(freed / sizeof(std::uint64_t) - kLarge, 5);
    const std::size_t left = ReusedPages::kept_bytes();
    EXPECT_GT(left, 0u);
    EXPECT_EQ(left, freed - a.capacity() * sizeof(std::uint64_t));
    for (std::size_t i = 0; i < a.size(); ++i)
        a[i] = i * 3;
    for (std::size_t i = 0; i < a.size(); ++i)
        ASSERT_EQ(a[i], i * 3);
    // Larger than what is left: all of it, and fresh pages past it.
    PageArray<std::uint8_t> b;
    b.resize_for_overwrite(left + ReusedPages::kSmallest);
    EXPECT_EQ(ReusedPages::kept_bytes(), 0u);
    for (std::size_t i = 0; i < b.size(); ++i)
        b[i] = static_cast<std::uint8_t>(i % 251);
    for (std::size_t i = 0; i < b.size(); ++i)
        ASSERT_EQ(b[i], static_cast<std::uint8_t>(i % 251));
}

TEST(ReusedPages, ScopesNestAndKeepAFewMappings) {
    {
        const ReusedPages::Scope outer;
        std::size_t one = 0;
        {
            const ReusedPages::Scope inner;
            std::vector<PageArray<std::uint32_t>> arrays;
            arrays.reserve(ReusedPages::kSlots + 2);
            for (std::size_t i = 0; i < ReusedPages::kSlots + 2; ++i)
                arrays.push_back(filled(kLarge));
            one = arrays.front().capacity() * sizeof(std::uint32_t);
        }
        // kSlots of them are kept, and the inner scope's end left them to the outer one.
        EXPECT_EQ(ReusedPages::kept_bytes(), ReusedPages::kSlots * one);
    }
    EXPECT_EQ(ReusedPages::kept_bytes(), 0u);
}

} // namespace
} // namespace firstrace
