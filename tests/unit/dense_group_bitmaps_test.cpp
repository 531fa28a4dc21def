// The sweep's partners by bitmap (dense_group_bitmaps.hpp, DESIGN-NOTES "One visit a race in the
// sweep"): the accumulator against a set of (rank, flags) built access by access, and the sweep
// with bitmaps on every plain group and on none against the byte-by-byte reference and against
// each other on the stress shapes.
#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <random>
#include <sstream>
#include <tuple>

#include "apparent_races.hpp"
#include "conflict_rule.hpp"
#include "dense_group_bitmaps.hpp"
#include "reference_analysis.hpp"
#include "shared_granules.hpp"
#include "stress/stress_shapes.hpp"
#include "test_support.hpp"

namespace firstrace {
namespace {

constexpr DenseGroupRule kEveryGroup{1, std::numeric_limits<std::uint32_t>::max()};
constexpr DenseGroupRule kNoGroup{std::numeric_limits<std::uint32_t>::max(), 1};
// Group records for every segment (the default bitmaps), and for none that has no atomic access
// (no bitmaps: a segment with a dense group keeps its records).
constexpr DenseGroupRule kRecordsEverywhere{16, 16, 0};
// (their visits gallop to the event's listed windows, or find every slot's run)
constexpr DenseGroupRule kFewestRecords{std::numeric_limits<std::uint32_t>::max(), 1,
                                        std::numeric_limits<std::uint32_t>::max(), 0};
constexpr DenseGroupRule kFewestRecordsByRuns{std::numeric_limits<std::uint32_t>::max(), 1,
                                              std::numeric_limits<std::uint32_t>::max(),
                                              std::numeric_limits<std::uint32_t>::max()};
// The sweep's ranges kept only in granules two slots touch, one writing (shared_granules.hpp):
// granules of one byte (the live bytes exactly), of eight with the fewest records (a granule
// holds several variables, ranges cut at its ends), and no filter.
constexpr DenseGroupRule kByteGranules{16, 16, 64, 4, 0};
constexpr DenseGroupRule kEightByteGranules{std::numeric_limits<std::uint32_t>::max(), 1,
                                            std::numeric_limits<std::uint32_t>::max(), 0, 3};
constexpr DenseGroupRule kNoGranules{16, 16, 64, 4, SharedGranules::kOff};

std::uint8_t flags_of(std::uint8_t x, std::uint8_t y) {
    std::uint8_t flags = 0;
    if ((x & kAnyWrite) && (y & kAnyRead)) flags |= 1;
    if ((y & kAnyWrite) && (x & kAnyRead)) flags |= 2;
    if (races_on(x, y)) flags |= 4;
    return flags;
}

// Random plain groups in a few "slots" (ranges of ranks), x's accesses to some of them and a
// window per slot; the drained partners of each window must be the visits' union: every rank
// of the window with a conflicting access in some group x touches, with the OR of flags_of.
TEST(WindowPartnerWords, DrainsTheUnionOfTheVisitsOfEveryWindow) {
    std::mt19937_64 rng(2026);
    auto pick = [&](std::uint32_t lo, std::uint32_t hi) {
        return std::uniform_int_distribution<std::uint32_t>(lo, hi)(rng);
    };
    const std::uint8_t plain[] = {kPlainRead, kPlainWrite, kPlainRead | kPlainWrite};
    const std::uint8_t any[] = {kPlainRead,
                                kPlainWrite,
                                kPlainRead | kPlainWrite,
                                kAtomicRead,
                                kAtomicWrite,
                                kAtomicRead | kAtomicWrite,
                                kAtomicRead | kPlainWrite};
    for (int round = 0; round < 400; ++round) {
        // slots of 1-300 ranks each, adjacent: windows of two slots share words at their ends
        std::vector<std::uint32_t> slot_first{0};
        for (std::uint32_t s = pick(1, 4); s > 0; --s)
            slot_first.push_back(slot_first.back() + pick(1, 300));
        const std::uint32_t ranks = slot_first.back();
        DenseGroupBitmaps bitmaps;
        WindowPartnerWords words(ranks);
        std::map<std::uint32_t, std::uint8_t> expected; // rank -> flags
        struct Window {
            std::uint32_t lo, hi;
            WordRange words; // what add() reported
            bool added = false;
        };
        std::vector<Window> windows;
        for (std::size_t s = 0; s + 1 < slot_first.size(); ++s) {
            const std::uint32_t lo = pick(slot_first[s], slot_first[s + 1]);
            const std::uint32_t hi = pick(lo, slot_first[s + 1]);
            windows.push_back({lo, hi, {}, false});
            for (std::uint32_t groups = pick(0, 5); groups > 0; --groups) {
                // a group: ascending ranks of the slot, each with a plain access
                std::vector<std::pair<std::uint32_t, std::uint8_t>> members;
                const std::uint32_t density = pick(1, 8);
                for (std::uint32_t r = slot_first[s]; r < slot_first[s + 1]; ++r)
                    if (pick(1, density) == 1) members.push_back({r, plain[pick(0, 2)]});
                if (members.empty()) continue;
                const std::uint32_t id = bitmaps.build(
                    static_cast<std::uint32_t>(members.size()),
                    [&](std::uint32_t i) { return members[i].first; },
                    [&](std::uint32_t i) { return members[i].second; });
                // x touches it once or twice, with any access bits (atomic ones too: the
                // group is plain)
                for (std::uint32_t k = pick(1, 2); k > 0; --k) {
                    const std::uint8_t x_access = any[pick(0, 6)];
                    const WordRange added = words.add(bitmaps, id, x_access, lo, hi);
                    if (added.first < added.last) {
                        Window& window = windows.back();
                        if (window.added)
                            window.words.join(added);
                        else
                            window.words = added;
                        window.added = true;
                    }
                    const bool x_writes = (x_access & kAnyWrite) != 0;
                    for (const auto& [r, y_access] : members)
                        if (r >= lo && r < hi && (x_writes || (y_access & kAnyWrite)))
                            expected[r] |= flags_of(x_access, y_access);
                }
            }
        }
        std::map<std::uint32_t, std::uint8_t> got;
        // drained in any slot order: the windows' shared end words keep the other's bits
        std::shuffle(windows.begin(), windows.end(), rng);
        for (const Window& window : windows)
            words.drain(window.lo, window.hi, window.words,
                        [&](std::uint32_t r, std::uint8_t flags) {
                            EXPECT_TRUE(got.emplace(r, flags).second) << "rank " << r << " twice";
                            EXPECT_GE(r, window.lo);
                            EXPECT_LT(r, window.hi);
                        });
        ASSERT_EQ(got, expected) << "round " << round;
        // everything drained: nothing left for the next event
        for (std::size_t s = 0; s + 1 < slot_first.size(); ++s)
            words.drain(slot_first[s], slot_first[s + 1],
                        {slot_first[s] / 64, (slot_first[s + 1] - 1) / 64 + 1},
                        [&](std::uint32_t r, std::uint8_t) { ADD_FAILURE() << "left " << r; });
    }
}

using RaceKey = std::tuple<std::uint32_t, std::uint32_t, bool, bool>;

std::vector<RaceKey> races_of(const UnorderedConflicts& c) {
    std::vector<RaceKey> out;
    for (const ApparentRace& r : c.races)
        out.emplace_back(r.a.value, r.b.value, r.a_writes_b_reads, r.b_writes_a_reads);
    return out;
}
std::vector<RaceKey> atomic_pairs_of(const UnorderedConflicts& c) {
    std::vector<RaceKey> out;
    for (const ApparentRace& r : c.atomic_only)
        out.emplace_back(r.a.value, r.b.value, r.a_writes_b_reads, r.b_writes_a_reads);
    return out;
}

struct Sweeps {
    UnorderedConflicts every, none, by_default, records_everywhere, fewest_records, by_runs;
    UnorderedConflicts byte_granules, eight_byte_granules, no_granules;
};
Sweeps sweep_three_ways(const TemporalGraph& g) {
    const NodeGraph graph = NodeGraph::from_edges(g.node_count(), g.edges());
    const Components comps = strong_components(graph);
    const GraphReachability ts(g, graph, comps, kDefaultTimestampBudget);
    const EventOrder order(g, ts);
    return {find_apparent_races(g, order, {}, kEveryGroup),
            find_apparent_races(g, order, {}, kNoGroup),
            find_apparent_races(g, order, {}),
            find_apparent_races(g, order, {}, kRecordsEverywhere),
            find_apparent_races(g, order, {}, kFewestRecords),
            find_apparent_races(g, order, {}, kFewestRecordsByRuns),
            find_apparent_races(g, order, {}, kByteGranules),
            find_apparent_races(g, order, {}, kEightByteGranules),
            find_apparent_races(g, order, {}, kNoGranules)};
}

// Over the atomic-pair budget (every event reduced, linked ones approximated: which events are
// linked counts the partners in segments with and without group records alike), the sweep
// with group records everywhere and with the fewest gives the same pairs and approximations.
void expect_records_change_nothing_over_the_budget(const TemporalGraph& g) {
    const NodeGraph graph = NodeGraph::from_edges(g.node_count(), g.edges());
    const Components comps = strong_components(graph);
    const GraphReachability ts(g, graph, comps, kDefaultTimestampBudget);
    const EventOrder order(g, ts);
    for (const std::uint64_t budget : {std::uint64_t{0}, std::uint64_t{40}}) {
        const UnorderedConflicts all =
            find_apparent_races(g, order, {}, kRecordsEverywhere, budget);
        for (const DenseGroupRule& rule :
             {kFewestRecords, kFewestRecordsByRuns, kByteGranules, kEightByteGranules}) {
            const UnorderedConflicts few = find_apparent_races(g, order, {}, rule, budget);
            EXPECT_EQ(races_of(few), races_of(all)) << "budget " << budget;
            EXPECT_EQ(atomic_pairs_of(few), atomic_pairs_of(all)) << "budget " << budget;
            EXPECT_EQ(few.approximated, all.approximated) << "budget " << budget;
        }
    }
}

// The races of `trace` with bitmaps on every plain group, on none and by default, against the
// reference; returns how many.
std::size_t expect_every_rule_gives_the_reference(const Trace& trace) {
    const TemporalGraph g(trace);
    const Sweeps s = sweep_three_ways(g);
    const reference::ReferenceResult ref = reference::analyze(g, Ordering::Approximate);
    std::vector<RaceKey> expected;
    for (const reference::ReferenceRace& r : ref.races)
        expected.emplace_back(r.a.value, r.b.value, r.a_ctrl_b, r.b_ctrl_a);
    EXPECT_EQ(races_of(s.every), expected);
    EXPECT_EQ(races_of(s.none), expected);
    EXPECT_EQ(races_of(s.by_default), expected);
    EXPECT_EQ(races_of(s.records_everywhere), expected);
    EXPECT_EQ(races_of(s.fewest_records), expected);
    EXPECT_EQ(races_of(s.by_runs), expected);
    EXPECT_EQ(races_of(s.byte_granules), expected);
    EXPECT_EQ(races_of(s.eight_byte_granules), expected);
    EXPECT_EQ(races_of(s.no_granules), expected);
    EXPECT_EQ(atomic_pairs_of(s.every), atomic_pairs_of(s.none));
    EXPECT_EQ(atomic_pairs_of(s.by_default), atomic_pairs_of(s.none));
    EXPECT_EQ(atomic_pairs_of(s.records_everywhere), atomic_pairs_of(s.none));
    EXPECT_EQ(atomic_pairs_of(s.fewest_records), atomic_pairs_of(s.none));
    EXPECT_EQ(atomic_pairs_of(s.by_runs), atomic_pairs_of(s.none));
    EXPECT_EQ(atomic_pairs_of(s.byte_granules), atomic_pairs_of(s.no_granules));
    EXPECT_EQ(atomic_pairs_of(s.eight_byte_granules), atomic_pairs_of(s.no_granules));
    EXPECT_EQ(atomic_pairs_of(s.no_granules), atomic_pairs_of(s.none));
    EXPECT_EQ(s.fewest_records.approximated, s.records_everywhere.approximated);
    EXPECT_EQ(s.by_runs.approximated, s.records_everywhere.approximated);
    EXPECT_EQ(s.byte_granules.approximated, s.no_granules.approximated);
    EXPECT_EQ(s.eight_byte_granules.approximated, s.no_granules.approximated);
    expect_records_change_nothing_over_the_budget(g);
    return expected.size();
}

// Random traces as the differential tests make them (dense ones, and with OS threads, private
// storage and atomics, and scattered ranges on a third): with bitmaps on every plain group the
// races and their flags are the reference's, and the atomic-only pairs those of the sweep
// without bitmaps (which the differential tests check against the reference).
TEST(DenseGroupSweep, BitmapsOnEveryGroupGiveTheReferenceRaces) {
    std::size_t races = 0;
    for (std::uint64_t seed = 1; seed <= 240; ++seed) {
        std::mt19937_64 rng(seed * 31 + 5);
        auto pick = [&](std::uint32_t lo, std::uint32_t hi) {
            return std::uniform_int_distribution<std::uint32_t>(lo, hi)(rng);
        };
        bench::GeneratorParams p;
        p.seed = seed;
        p.threads = pick(2, 6);
        p.locks = pick(0, 3);
        p.variables = pick(1, 8);
        p.operations = pick(40, 220);
        p.write_ratio = 0.2 + 0.1 * pick(0, 5);
        p.sync_ratio = 0.05 * pick(0, 6);
        p.protected_ratio = 0.2 * pick(0, 5);
        p.locations = pick(1, 6);
        p.nested_forks = pick(0, 1) == 1;
        Trace trace = test::parse_std(test::random_std(p));
        if (seed % 3 == 0) test::scatter_accesses(trace, seed);
        if (seed % 2 == 0) test::add_os_threads_and_atomics(trace, seed);
        if (seed % 4 == 0) // atomics without private storage: the bitmaps' case
            for (Process& process : trace.processes)
                process.os_thread = kNone;
        SCOPED_TRACE("seed " + std::to_string(seed));
        races += expect_every_rule_gives_the_reference(trace);
    }
    // Long runs of atomic releases and acquires, plain data between them (test_support.hpp):
    // groups of atomic accesses beside plain ones, linked and unlinked events.
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        SCOPED_TRACE("release runs seed " + std::to_string(seed));
        races += expect_every_rule_gives_the_reference(test::release_runs_trace(seed));
    }
    EXPECT_GT(races, 5000u); // (seeds 1-240 and 1-60: 7 416)
}

// The stress shapes (fork/join waves: windows of one lower process skipped, slots of several
// processes; one hot variable; many variables; the random generator), too large for the
// reference: bitmaps on every group, on none, and the default rule give the same lists.
TEST(DenseGroupSweep, StressShapesGiveTheSameRacesEveryWay) {
    for (const char* shape : {"waves", "hot", "vars", "random"})
        for (std::uint64_t seed = 1; seed <= 3; ++seed) {
            bench::StressShape s;
            s.name = shape;
            s.threads = 3 + std::uint32_t(seed);
            s.lines = 4000;
            s.seed = seed;
            std::ostringstream text;
            bench::StressTraceWriter(s).write(text);
            Trace trace = test::parse_std(text.str());
            if (seed == 3) test::add_os_threads_and_atomics(trace, seed);
            SCOPED_TRACE(std::string(shape) + " seed " + std::to_string(seed));
            const TemporalGraph g(trace);
            const Sweeps sw = sweep_three_ways(g);
            EXPECT_GT(sw.none.races.size(), 100u);
            ASSERT_EQ(races_of(sw.every), races_of(sw.none));
            ASSERT_EQ(races_of(sw.by_default), races_of(sw.none));
            ASSERT_EQ(atomic_pairs_of(sw.every), atomic_pairs_of(sw.none));
            ASSERT_EQ(atomic_pairs_of(sw.by_default), atomic_pairs_of(sw.none));
            ASSERT_EQ(races_of(sw.records_everywhere), races_of(sw.none));
            ASSERT_EQ(races_of(sw.fewest_records), races_of(sw.none));
            ASSERT_EQ(races_of(sw.by_runs), races_of(sw.none));
            ASSERT_EQ(atomic_pairs_of(sw.by_runs), atomic_pairs_of(sw.none));
            ASSERT_EQ(atomic_pairs_of(sw.records_everywhere), atomic_pairs_of(sw.none));
            ASSERT_EQ(atomic_pairs_of(sw.fewest_records), atomic_pairs_of(sw.none));
            ASSERT_EQ(races_of(sw.byte_granules), races_of(sw.none));
            ASSERT_EQ(races_of(sw.eight_byte_granules), races_of(sw.none));
            ASSERT_EQ(races_of(sw.no_granules), races_of(sw.none));
            ASSERT_EQ(atomic_pairs_of(sw.byte_granules), atomic_pairs_of(sw.none));
            ASSERT_EQ(atomic_pairs_of(sw.eight_byte_granules), atomic_pairs_of(sw.none));
        }
}

} // namespace
} // namespace firstrace
