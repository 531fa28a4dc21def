// RaceList (the analysis' races by column) against a vector of the records pushed: random races
// with runs of equal a and repeated events, ids equal to or apart from the index, tangles and
// overlaps present or not, read by index, by iteration forwards and backwards and by iterator
// arithmetic; and a list made from columns against the same races pushed one by one.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "firstrace/race_list.hpp"

namespace firstrace {
namespace {

void expect_same_race(const Race& got, const Race& want, std::size_t i) {
    EXPECT_EQ(got.id, want.id) << "race " << i;
    EXPECT_EQ(got.a, want.a) << "race " << i;
    EXPECT_EQ(got.b, want.b) << "race " << i;
    EXPECT_EQ(got.tangle, want.tangle) << "race " << i;
    EXPECT_EQ(got.partition, want.partition) << "race " << i;
    EXPECT_EQ(got.status, want.status) << "race " << i;
    EXPECT_EQ(got.actual, want.actual) << "race " << i;
}

void expect_same(const RaceList& list, const std::vector<Race>& want) {
    ASSERT_EQ(list.size(), want.size());
    EXPECT_EQ(list.empty(), want.empty());
    for (std::size_t i = 0; i < want.size(); ++i)
        expect_same_race(list[i], want[i], i);
    std::size_t i = 0;
    for (const Race& r : list)
        expect_same_race(r, want[i], i), ++i;
    EXPECT_EQ(i, want.size());
    if (want.empty()) return;
    expect_same_race(list.front(), want.front(), 0);
    expect_same_race(list.back(), want.back(), want.size() - 1);
    auto it = list.end();
    for (std::size_t k = want.size(); k-- > 0;)
        expect_same_race(*--it, want[k], k);
    EXPECT_EQ(it, list.begin());
    for (std::size_t k = 0; k < want.size(); k += 1 + k / 3) {
        expect_same_race(*(list.begin() + std::ptrdiff_t(k)), want[k], k);
        expect_same_race(list.begin()[std::ptrdiff_t(k)], want[k], k);
        EXPECT_EQ((list.begin() + std::ptrdiff_t(k)) - list.begin(), std::ptrdiff_t(k));
    }
}

std::vector<Race> random_races(std::mt19937_64& rng, std::size_t n, bool ids_apart, bool tangles,
                               bool actual) {
    std::vector<Race> races;
    EventRef a{0, 0};
    for (std::size_t i = 0; i < n; ++i) {
        if (i == 0 || rng() % 4 == 0) // runs of equal a, some a repeated after others
            a = {static_cast<std::uint32_t>(rng() % 3), static_cast<std::uint32_t>(rng() % 5)};
        Race r;
        r.id = ids_apart ? static_cast<std::uint32_t>(n - i + rng() % 3) : std::uint32_t(i);
        r.a = a;
        r.b = {3 + static_cast<std::uint32_t>(rng() % 3), static_cast<std::uint32_t>(rng() % 9)};
        if (tangles && rng() % 3 == 0) r.tangle = static_cast<std::uint32_t>(rng() % 4);
        r.partition = static_cast<std::uint32_t>(rng() % 7);
        r.status = static_cast<RaceStatus>(rng() % 3);
        if (actual && rng() % 4 != 0) r.actual = rng() % 2 == 0;
        races.push_back(r);
    }
    return races;
}

TEST(RaceList, PushedRacesReadBackAsPushed) {
    std::mt19937_64 rng(14);
    for (int round = 0; round < 200; ++round) {
        const std::size_t n = rng() % 40;
        const std::vector<Race> want =
            random_races(rng, n, round % 4 == 1, round % 3 != 0, round % 2 == 0);
        RaceList list;
        if (round % 5 == 0) list.reserve(n);
        for (const Race& r : want)
            list.push_back(r);
        expect_same(list, want);
        RaceList copy = list;
        expect_same(copy, want);
        copy.clear();
        expect_same(copy, {});
    }
    const std::vector<Race> three = random_races(rng, 3, false, true, true);
    expect_same(RaceList{three[0], three[1], three[2]}, three);
}

TEST(RaceList, ColumnsReadAsTheSameRacesPushed) {
    std::mt19937_64 rng(8);
    for (int round = 0; round < 100; ++round) {
        const std::size_t n = 1 + rng() % 50;
        const bool tangles = round % 2 == 0, actual = round % 3 == 0;
        std::vector<Race> want = random_races(rng, n, false, tangles, actual);
        RaceList::Columns c;
        for (std::uint32_t p = 0; p < 6; ++p)
            for (std::uint32_t i = 0; i < 9; ++i)
                c.events.push_back({p, i});
        auto number = [](const EventRef& e) { return e.process * 9 + e.index; };
        for (std::uint32_t i = 0; i < n; ++i) {
            const Race& r = want[i];
            if (c.a_event.empty() || c.a_event.back() != number(r.a)) {
                c.a_begin.push_back(i);
                c.a_event.push_back(number(r.a));
            }
            c.b_event.push_back(number(r.b));
            c.status.push_back(r.status);
            c.partition.push_back(r.partition);
            if (tangles) c.tangle.push_back(r.tangle.value_or(kNone));
            if (actual) c.actual.push_back(r.actual ? (*r.actual ? 2 : 1) : 0);
        }
        RaceList list(std::move(c));
        expect_same(list, want);
        // Pushing onto a list made of columns goes on with the same events.
        const std::vector<Race> more = random_races(rng, 5, false, tangles, actual);
        for (Race r : more) {
            r.id = static_cast<std::uint32_t>(want.size());
            want.push_back(r);
            list.push_back(r);
        }
        expect_same(list, want);
    }
}

TEST(RaceList, ColumnsThatDoNotFitAreRejected) {
    RaceList::Columns c;
    c.events = {{0, 0}, {1, 0}};
    c.a_begin = {0};
    c.a_event = {0};
    c.b_event = {1, 1};
    c.status = {RaceStatus::Feasible, RaceStatus::Feasible};
    c.partition = {0};
    EXPECT_THROW(RaceList{c}, std::invalid_argument);
    c.partition = {0, 0};
    c.a_begin = {1};
    EXPECT_THROW(RaceList{c}, std::invalid_argument);
    c.a_begin = {0};
    EXPECT_NO_THROW(RaceList{c});
}

} // namespace
} // namespace firstrace
