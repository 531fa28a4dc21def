// MemoryLifetimes (the reader's separation of reused memory into lifetimes, issue 11) against a
// brute-force reference: random lifetime starts (overlapping ranges, equal clocks) and random
// accesses visited in clock order. A start's generation is 1 + the highest generation of a kept
// start before it (clock order) on some byte of its range; one above the key limit (random,
// often small) is left out. Per byte, an access's lifetime is the latest kept start covering the
// byte whose clock is before the access's (its event's end; 0: none); two accesses of a byte
// must get the same key exactly when their lifetimes are equal, each key must name its byte and
// carry the start's generation.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <vector>

#include "memory_lifetimes.hpp"

namespace firstrace {
namespace {

struct Access {
    Interval range;
    std::uint64_t clock;
};

// Per start (clock order, ties in the given order): its generation, 0 when left out.
std::vector<std::uint64_t> reference_generations(const std::vector<LifetimeStart>& by_clock,
                                                 std::uint64_t limit) {
    std::vector<std::uint64_t> generation(by_clock.size(), 0);
    for (std::size_t i = 0; i < by_clock.size(); ++i) {
        std::uint64_t highest = 0;
        for (std::size_t j = 0; j < i; ++j)
            if (generation[j] != 0 && by_clock[j].range.lo < by_clock[i].range.hi &&
                by_clock[i].range.lo < by_clock[j].range.hi)
                highest = std::max(highest, generation[j]);
        if (highest + 1 <= limit) generation[i] = highest + 1;
    }
    return generation;
}

// The lifetime of byte y at clock t: the generation of the latest kept start covering y
// before t, 0 when none.
std::uint64_t reference_lifetime(const std::vector<LifetimeStart>& by_clock,
                                 const std::vector<std::uint64_t>& generation, std::uint64_t y,
                                 std::uint64_t t) {
    std::uint64_t id = 0;
    for (std::size_t i = 0; i < by_clock.size(); ++i)
        if (generation[i] != 0 && by_clock[i].clock < t && by_clock[i].range.lo <= y &&
            y < by_clock[i].range.hi)
            id = generation[i];
    return id;
}

TEST(MemoryLifetimes, KeysMatchBruteForceLifetimes) {
    std::mt19937_64 rng(20261124);
    constexpr std::uint64_t kBase = 0x7f0000001000;
    for (int round = 0; round < 300; ++round) {
        const int nstarts = static_cast<int>(rng() % 12);
        const std::uint64_t span = 8 + rng() % 120;
        const std::uint64_t clocks = 1 + rng() % 40; // few clocks: many ties
        std::vector<LifetimeStart> starts;
        for (int i = 0; i < nstarts; ++i) {
            const std::uint64_t lo = kBase + rng() % span;
            const std::uint64_t hi = lo + 1 + rng() % 48;
            starts.push_back({{lo, hi}, rng() % clocks, static_cast<std::uint32_t>(i)});
        }
        std::vector<LifetimeStart> by_clock = starts;
        std::stable_sort(
            by_clock.begin(), by_clock.end(),
            [](const LifetimeStart& a, const LifetimeStart& b) { return a.clock < b.clock; });
        std::vector<Access> accesses;
        for (int i = 0; i < 40; ++i) {
            const std::uint64_t lo = kBase - 16 + rng() % (span + 64);
            accesses.push_back({{lo, lo + 1 + rng() % 40}, rng() % (clocks + 2)});
        }
        std::stable_sort(accesses.begin(), accesses.end(),
                         [](const Access& a, const Access& b) { return a.clock < b.clock; });
        const std::uint64_t limit = round % 3 == 0 ? kLifetimeKeys : 1 + rng() % 4;
        const std::vector<std::uint64_t> generation = reference_generations(by_clock, limit);
        MemoryLifetimes lifetimes(starts, limit);
        std::vector<std::uint32_t> left_out;
        for (std::size_t i = 0; i < by_clock.size(); ++i)
            if (generation[i] == 0) left_out.push_back(by_clock[i].tag);
        std::vector<std::uint32_t> got_left_out;
        for (const LifetimeStart& s : lifetimes.left_out())
            got_left_out.push_back(s.tag);
        ASSERT_EQ(got_left_out, left_out) << "round " << round;
        ASSERT_EQ(lifetimes.empty(), left_out.size() == starts.size());
        // byte -> (key, reference lifetime) per access
        std::vector<std::map<std::uint64_t, std::pair<std::uint64_t, std::uint64_t>>> seen;
        for (const Access& a : accesses) {
            bool touched = false;
            for (std::size_t i = 0; i < by_clock.size(); ++i)
                touched |= generation[i] != 0 && by_clock[i].range.lo < a.range.hi &&
                           a.range.lo < by_clock[i].range.hi;
            ASSERT_EQ(lifetimes.touches(a.range), touched) << "round " << round;
            lifetimes.advance_to(a.clock);
            std::vector<Interval> pieces;
            const bool moved =
                lifetimes.split(a.range, [&](const Interval& x) { pieces.push_back(x); });
            auto& bytes = seen.emplace_back();
            bool any_later = false;
            std::uint64_t next = a.range.lo; // the pieces cover the range in order
            for (const Interval& piece : pieces) {
                ASSERT_LT(piece.lo, piece.hi);
                const Interval bytes_of = program_range(piece);
                ASSERT_EQ(bytes_of.lo, next) << "round " << round;
                next = bytes_of.hi;
                for (std::uint64_t y = bytes_of.lo; y < bytes_of.hi; ++y) {
                    const std::uint64_t ref = reference_lifetime(by_clock, generation, y, a.clock);
                    any_later |= ref != 0;
                    bytes[y] = {piece.lo + (y - bytes_of.lo), ref};
                    ASSERT_EQ(piece.lo + (y - bytes_of.lo), lifetime_key(y, ref))
                        << "round " << round << " byte " << y;
                }
            }
            ASSERT_EQ(next, a.range.hi);
            ASSERT_EQ(moved, any_later);
        }
        // conflicts: a byte two accesses share is one key exactly when one lifetime
        for (std::size_t i = 0; i < seen.size(); ++i)
            for (std::size_t j = i + 1; j < seen.size(); ++j)
                for (const auto& [y, a] : seen[i]) {
                    const auto it = seen[j].find(y);
                    if (it == seen[j].end()) continue;
                    ASSERT_EQ(a.first == it->second.first, a.second == it->second.second)
                        << "round " << round << " byte " << y;
                }
    }
}

// Events that last across a start of their bytes (split with `since`): per byte, the keys are
// the lifetime at the event's end and, when the latest start covering the byte before that end
// has a clock after the event's start, also the lifetime that start replaced there (the latest
// kept start covering the byte before it in clock order, 0 when none).
TEST(MemoryLifetimes, EventsAcrossAStartKeepTheLifetimeBefore) {
    std::mt19937_64 rng(20261125);
    constexpr std::uint64_t kBase = 0x7f0000001000;
    for (int round = 0; round < 300; ++round) {
        const int nstarts = static_cast<int>(rng() % 12);
        const std::uint64_t span = 8 + rng() % 120;
        const std::uint64_t clocks = 1 + rng() % 40;
        std::vector<LifetimeStart> starts;
        for (int i = 0; i < nstarts; ++i) {
            const std::uint64_t lo = kBase + rng() % span;
            starts.push_back({{lo, lo + 1 + rng() % 48}, rng() % clocks});
        }
        std::vector<LifetimeStart> by_clock = starts;
        std::stable_sort(
            by_clock.begin(), by_clock.end(),
            [](const LifetimeStart& a, const LifetimeStart& b) { return a.clock < b.clock; });
        const std::uint64_t limit = round % 3 == 0 ? kLifetimeKeys : 1 + rng() % 4;
        const std::vector<std::uint64_t> generation = reference_generations(by_clock, limit);
        struct Event {
            Interval range;
            std::uint64_t start, end;
        };
        std::vector<Event> events;
        for (int i = 0; i < 40; ++i) {
            const std::uint64_t lo = kBase - 16 + rng() % (span + 64);
            const std::uint64_t end = rng() % (clocks + 2);
            events.push_back({{lo, lo + 1 + rng() % 40}, end - std::min(end, rng() % 8), end});
        }
        std::stable_sort(events.begin(), events.end(),
                         [](const Event& a, const Event& b) { return a.end < b.end; });
        MemoryLifetimes lifetimes(starts, limit);
        for (const Event& e : events) {
            lifetimes.advance_to(e.end);
            std::map<std::uint64_t, std::set<std::uint64_t>> keys; // byte -> keys
            lifetimes.split(
                e.range,
                [&](const Interval& piece) {
                    const Interval bytes_of = program_range(piece);
                    for (std::uint64_t y = bytes_of.lo; y < bytes_of.hi; ++y)
                        keys[y].insert(piece.lo + (y - bytes_of.lo));
                },
                e.start);
            for (std::uint64_t y = e.range.lo; y < e.range.hi; ++y) {
                std::set<std::uint64_t> expected;
                std::size_t latest = by_clock.size(); // the latest kept start on y before end
                for (std::size_t i = 0; i < by_clock.size(); ++i)
                    if (generation[i] != 0 && by_clock[i].clock < e.end &&
                        by_clock[i].range.lo <= y && y < by_clock[i].range.hi)
                        latest = i;
                expected.insert(
                    lifetime_key(y, latest == by_clock.size() ? 0 : generation[latest]));
                if (latest != by_clock.size() && by_clock[latest].clock > e.start) {
                    std::uint64_t replaced = 0;
                    for (std::size_t i = 0; i < latest; ++i)
                        if (generation[i] != 0 && by_clock[i].range.lo <= y &&
                            y < by_clock[i].range.hi)
                            replaced = generation[i];
                    expected.insert(lifetime_key(y, replaced));
                }
                ASSERT_EQ(keys[y], expected) << "round " << round << " byte " << y;
            }
        }
    }
}

TEST(MemoryLifetimes, KeysStayAboveProgramAddressesAndStripToThem) {
    const std::uint64_t address = kProgramAddressEnd - 8;
    for (std::uint64_t id : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{2}, kLifetimeKeys}) {
        const std::uint64_t key = lifetime_key(address, id);
        EXPECT_EQ(program_address(key), address);
        EXPECT_EQ(key >> 62, 0u); // never in the OpenMP task spaces
        EXPECT_EQ(key == address, id == 0);
    }
    EXPECT_NE(lifetime_key(address, 1), lifetime_key(address, 2));
    EXPECT_NE(lifetime_key(address, 1), lifetime_key(address, kLifetimeKeys));
    const std::uint64_t task_key = (std::uint64_t{1} << 63) | 0x1234; // left alone
    EXPECT_EQ(program_address(task_key), task_key);
}

} // namespace
} // namespace firstrace
