// ApparentRaceList (the sweep's races by column) against a vector of the records pushed: random
// sorted races with runs of equal a (long and of one race), every flag combination, read by
// index, by a range-for and by for_each; contains() against a search of the records; and the
// columns moved out against the records.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

#include "apparent_race_list.hpp"

namespace firstrace {
namespace {

std::vector<ApparentRace> random_sorted_races(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<ApparentRace> races;
    const std::uint32_t events = 1 + static_cast<std::uint32_t>(rng() % 300);
    for (std::uint32_t a = 0; a < events; ++a) {
        if (rng() % 3 == 0) continue; // events without races
        const std::uint32_t partners = rng() % 4 == 0 ? 1 : static_cast<std::uint32_t>(rng() % 40);
        for (std::uint32_t b = a + 1; b < events && b <= a + partners; ++b)
            if (rng() % 2 == 0)
                races.push_back({EventId(a), EventId(b), rng() % 2 == 0, rng() % 2 == 0});
    }
    return races;
}

void expect_same_race(const ApparentRace& got, const ApparentRace& want, std::size_t i) {
    EXPECT_EQ(got.a, want.a) << "race " << i;
    EXPECT_EQ(got.b, want.b) << "race " << i;
    EXPECT_EQ(got.a_writes_b_reads, want.a_writes_b_reads) << "race " << i;
    EXPECT_EQ(got.b_writes_a_reads, want.b_writes_a_reads) << "race " << i;
}

TEST(ApparentRaceList, ReadsBackWhatWasPushedEveryWay) {
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const std::vector<ApparentRace> want = random_sorted_races(seed);
        ApparentRaceList list;
        for (const ApparentRace& r : want)
            list.push_back(r);
        ASSERT_EQ(list.size(), want.size());
        EXPECT_EQ(list.empty(), want.empty());
        for (std::size_t i = 0; i < want.size(); ++i)
            expect_same_race(list[i], want[i], i);
        std::size_t i = 0;
        for (const ApparentRace& r : list)
            expect_same_race(r, want[i], i), ++i;
        EXPECT_EQ(i, want.size());
        std::size_t next = 0;
        list.for_each([&](std::uint32_t k, EventId a, EventId b) {
            ASSERT_EQ(k, next);
            ASSERT_LT(k, want.size());
            expect_same_race(list.with_flags(k, a, b), want[k], k);
            ++next;
        });
        EXPECT_EQ(next, want.size());

        // contains(): every listed pair, and pairs next to them that are not listed.
        std::mt19937_64 rng(seed * 7);
        for (int probe = 0; probe < 400; ++probe) {
            const EventId a(static_cast<std::uint32_t>(rng() % 310));
            const EventId b(static_cast<std::uint32_t>(rng() % 310));
            const bool listed = std::any_of(want.begin(), want.end(), [&](const ApparentRace& r) {
                return r.a == a && r.b == b;
            });
            EXPECT_EQ(list.contains(a, b), listed) << a.value << ", " << b.value;
        }
        for (const ApparentRace& r : want)
            EXPECT_TRUE(list.contains(r.a, r.b));

        std::vector<std::uint32_t> a_begin, a_event;
        PageArray<std::uint32_t> b_event;
        list.move_columns_to(a_begin, a_event, b_event);
        EXPECT_TRUE(list.empty());
        ASSERT_EQ(b_event.size(), want.size());
        ASSERT_EQ(a_begin.size(), a_event.size());
        for (std::size_t run = 0; run < a_begin.size(); ++run) {
            const std::size_t last = run + 1 < a_begin.size() ? a_begin[run + 1] : want.size();
            ASSERT_LT(a_begin[run], last) << "empty run";
            for (std::size_t k = a_begin[run]; k < last; ++k) {
                EXPECT_EQ(a_event[run], want[k].a.value);
                EXPECT_EQ(b_event[k], want[k].b.value);
            }
            if (run > 0) {
                EXPECT_LT(a_event[run - 1], a_event[run]);
            }
        }
    }
}

} // namespace
} // namespace firstrace
