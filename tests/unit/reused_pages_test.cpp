// ReusedPages: inside a scope a large PageArray freed leaves its mapping to the next large one
// (resized to it, its values intact), small ones and those freed outside a scope are unmapped,
// and the scope's end unmaps what is left.
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
        EXPECT_GE(ReusedPages::kept_bytes(), kLarge * sizeof(std::uint32_t));
        // A smaller array of another type takes it over, shrunk to its own size.
        PageArray<std::uint8_t> b;
        b.reserve(ReusedPages::kSmallest + 12345);
        EXPECT_EQ(static_cast<const void*>(b.data()), freed);
        EXPECT_EQ(ReusedPages::kept_bytes(), 0u);
        for (std::size_t i = 0; i < ReusedPages::kSmallest + 12345; ++i)
            b.push_back(static_cast<std::uint8_t>(i));
        for (std::size_t i = 0; i < b.size(); i += 4099)
            ASSERT_EQ(b[i], static_cast<std::uint8_t>(i));
        // A larger one grows a kept mapping: what it writes is what it reads.
        { const PageArray<std::uint8_t> gone = std::move(b); }
        const PageArray<std::uint32_t> c = filled(2 * kLarge);
        for (std::size_t i = 0; i < c.size(); i += 4099)
            ASSERT_EQ(c[i], static_cast<std::uint32_t>(i * 7));
        // Small arrays are not kept; a kept one is unmapped when the scope ends.
        { const PageArray<std::uint32_t> small = filled(1000); }
        EXPECT_EQ(ReusedPages::kept_bytes(), 0u);
        { const PageArray<std::uint32_t> d = filled(kLarge); }
        EXPECT_GT(ReusedPages::kept_bytes(), 0u);
    }
    EXPECT_EQ(ReusedPages::kept_bytes(), 0u);
    { const PageArray<std::uint32_t> outside = filled(kLarge); }
    EXPECT_EQ(ReusedPages::kept_bytes(), 0u);
}

TEST(ReusedPages, ScopesNestAndKeepAFewMappings) {
    {
        const ReusedPages::Scope outer;
        std::size_t one = 0;
        {
            const ReusedPages::Scope inner;
            std::vector<PageArray<std::uint32_t>> arrays;
            arrays.reserve(6);
            for (int i = 0; i < 6; ++i)
                arrays.push_back(filled(kLarge));
            one = arrays.front().capacity() * sizeof(std::uint32_t);
        }
        // Four of the six are kept, and the inner scope's end left them to the outer one.
        EXPECT_EQ(ReusedPages::kept_bytes(), 4 * one);
    }
    EXPECT_EQ(ReusedPages::kept_bytes(), 0u);
}

} // namespace
} // namespace firstrace
