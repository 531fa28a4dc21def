// What counts as a conflict (DESIGN-NOTES "Atomic and plain accesses", "Private storage of
// logical processes"): atomic-only conflicts are dependences but not races; storage private to
// the OS thread two logical processes ran on is no conflict at all.
#include <gtest/gtest.h>

#include "apparent_races.hpp"
#include "dependences.hpp"
#include "firstrace/analysis.hpp"
#include "firstrace/race_accesses.hpp"

namespace firstrace {
namespace {

// Two processes, one computation event each, accessing [address, address + 4).
Trace two_accesses(std::uint8_t flags_a, std::uint8_t flags_b, std::uint64_t address) {
    Trace t;
    t.locations.push_back({"x.c", 1, 0, "", 0});
    for (std::uint8_t flags : {flags_a, flags_b}) {
        Process p;
        p.name = "P" + std::to_string(t.processes.size());
        Event e;
        e.first_site = static_cast<std::uint32_t>(t.sites.size());
        e.site_count = 1;
        t.sites.push_back({0, flags, static_cast<std::uint32_t>(t.ranges.size()), 1});
        t.ranges.push_back({address, address + 4});
        p.events.push_back(e);
        t.processes.push_back(p);
    }
    return t;
}

UnorderedConflicts conflicts_of(const Trace& t) {
    const TemporalGraph g(t);
    const NodeGraph graph = NodeGraph::from_edges(g.node_count(), g.edges());
    const Components comps = strong_components(graph);
    const GraphReachability ts(g, graph, comps, kDefaultTimestampBudget);
    return find_apparent_races(g, EventOrder(g, ts), {});
}

TEST(ConflictRules, AtomicOnlyConflictsAreDependencesNotRaces) {
    const Trace t = two_accesses(kAccessWrite | kAccessAtomic, kAccessRead | kAccessAtomic, 64);
    const UnorderedConflicts c = conflicts_of(t);
    EXPECT_TRUE(c.races.empty());
    ASSERT_EQ(c.atomic_only.size(), 1u);
    EXPECT_TRUE(c.atomic_only[0].a_writes_b_reads); // the load may have read the store
    EXPECT_FALSE(c.atomic_only[0].b_writes_a_reads);
    const TemporalGraph g(t);
    const NodeGraph graph = NodeGraph::from_edges(g.node_count(), g.edges());
    const Components comps = strong_components(graph);
    const GraphReachability ts(g, graph, comps, kDefaultTimestampBudget);
    const Dependences ec = compute_dependences(
        g, EventOrder(g, ts), c, DependenceKind::EventControl, Ordering::Approximate, 1000, {});
    ASSERT_EQ(ec.direct.size(), 1u);
    EXPECT_EQ(ec.direct[0].from, g.event_id(ProcessId(0), 0));
    EXPECT_EQ(ec.direct[0].to, g.event_id(ProcessId(1), 0));
}

TEST(ConflictRules, MixedAtomicAndPlainBytesRaceOnlyWherePlain) {
    // P0 writes [64, 72) atomically and [72, 76) plainly (two sites); P1 reads [64, 76)
    // atomically: only [72, 76) races.
    Trace t = two_accesses(kAccessWrite | kAccessAtomic, kAccessRead | kAccessAtomic, 64);
    // Sites in event order: P0's two, then P1's.
    t.sites = SiteTable();
    t.ranges.clear();
    for (const auto& [flags, range] : {std::pair{kAccessWrite | kAccessAtomic, Interval{64, 72}},
                                       std::pair{int{kAccessWrite}, Interval{72, 76}},
                                       std::pair{kAccessRead | kAccessAtomic, Interval{64, 76}}}) {
        t.sites.push_back(
            {0, static_cast<std::uint8_t>(flags), static_cast<std::uint32_t>(t.ranges.size()), 1});
        t.ranges.push_back(range);
    }
    t.processes[0].events[0].site_count = 2;
    t.processes[1].events[0].first_site = 2;
    const AnalysisResult r = analyze(t);
    ASSERT_EQ(r.races.size(), 1u);
    const RaceAccesses accesses = race_accesses(t, r.races[0]);
    EXPECT_EQ(accesses.conflicts, (std::vector<Interval>{{72, 76}}));
    EXPECT_EQ(accesses.sites_a, (std::vector<std::uint32_t>{1}));
    EXPECT_EQ(accesses.sites_b, (std::vector<std::uint32_t>{2}));
}

// Two logical processes on OS thread 0 (stack [0x1000, 0x2000), TLS [0x3000, 0x3100)), whose
// tasks' frames are below `below_a` / `below_b`.
Trace on_one_thread(std::uint64_t address, std::uint64_t below_a, std::uint64_t below_b,
                    bool same_thread = true) {
    Trace t = two_accesses(kAccessWrite, kAccessWrite, address);
    t.os_threads.push_back({1, {0x1000, 0x2000}, {0x3000, 0x3100}});
    t.os_threads.push_back({2, {0x5000, 0x6000}, {}});
    t.processes[0].os_thread = 0;
    t.processes[0].private_below = below_a;
    t.processes[1].os_thread = same_thread ? 0 : 1;
    t.processes[1].private_below = below_b;
    return t;
}

TEST(ConflictRules, PrivateStorageOfOneOsThreadDoesNotConflict) {
    EXPECT_TRUE(analyze(on_one_thread(0x1100, 0x1800, 0x1900)).races.empty());  // stack, below
    EXPECT_TRUE(analyze(on_one_thread(0x3010, 0, 0)).races.empty());            // TLS
    EXPECT_EQ(analyze(on_one_thread(0x1850, 0x1800, 0x1900)).races.size(), 1u); // above min
    EXPECT_EQ(analyze(on_one_thread(0x1100, 0x1800, 0x1900, false)).races.size(), 1u);
    EXPECT_TRUE(conflicts_of(on_one_thread(0x1100, 0x1800, 0x1900)).atomic_only.empty());
}

TEST(ConflictRules, AccessStraddlingThePrivateBorderRacesOnTheSharedPart) {
    // [0x17fe, 0x1802): the two bytes below 0x1800 are private to both, the rest is not.
    const Trace t = on_one_thread(0x17fe, 0x1800, 0x1900);
    const AnalysisResult r = analyze(t);
    ASSERT_EQ(r.races.size(), 1u);
    EXPECT_EQ(race_accesses(t, r.races[0]).conflicts, (std::vector<Interval>{{0x1800, 0x1802}}));
}

} // namespace
} // namespace firstrace
