// The thesis' running example (Figure 2.1) through every figure that shows a step of the
// analysis: 6.1 (G), 7.1 (G_D), 7.2 (validation with G_D), 7.3 (G_E), 7.4 (validation with
// G_E) and 8.1 (ordering and first partition). Events, as the thesis labels them:
//   a, c, e = left child (T1): initial work, remove, work on the removed region
//   b, d, f = right child (T2): the same
#include <gtest/gtest.h>

#include <algorithm>

#include "apparent_races.hpp"
#include "firstrace/analysis.hpp"
#include "firstrace/race_accesses.hpp"
#include "test_support.hpp"
#include "validation.hpp"

namespace firstrace {
namespace {

class ThesisExample : public ::testing::Test {
  protected:
    void SetUp() override {
        trace_ = read_std_trace(std::string(FIRSTRACE_SAMPLES) + "/traces/figure-2-1.std");
        AnalysisOptions options;
        options.ordering = Ordering::Approximate;
        result_ = analyze(trace_, options);
    }
    // Computation events by the thesis' letters: index in the process' event list.
    static EventRef a() { return {1, 0}; }
    static EventRef c() { return {1, 3}; }
    static EventRef e() { return {1, 6}; }
    static EventRef b() { return {2, 0}; }
    static EventRef d() { return {2, 3}; }
    static EventRef f() { return {2, 6}; }

    Race race(EventRef x, EventRef y) const {
        for (const Race& r : result_.races)
            if ((r.a == x && r.b == y) || (r.a == y && r.b == x)) return r;
        ADD_FAILURE() << "no race between the events";
        return result_.races.front();
    }
    bool has_edge(EdgeKind kind, EventRef from, EventRef to) const {
        return std::any_of(result_.edges.begin(), result_.edges.end(), [&](const GraphEdge& edge) {
            return edge.kind == kind && edge.from == from && edge.to == to;
        });
    }

    Trace trace_;
    AnalysisResult result_;
};

TEST_F(ThesisExample, Figure6_1_TemporalOrderingGraph) {
    const TemporalGraph g(trace_);
    ASSERT_EQ(g.process_count(), 3u);
    for (EventRef x : {a(), c(), e(), b(), d(), f()})
        EXPECT_TRUE(g.is_computation(g.event_id(x)));
    const NodeGraph nodes = NodeGraph::from_edges(g.node_count(), g.edges());
    const Components comps = strong_components(nodes);
    const GraphReachability ts(g, nodes, comps, kDefaultTimestampBudget);
    const EventOrder order(g, ts);
    auto id = [&](EventRef r) { return g.event_id(r); };
    // Process order inside each child.
    EXPECT_TRUE(order.precedes(id(a()), id(c())));
    EXPECT_TRUE(order.precedes(id(c()), id(e())));
    EXPECT_TRUE(order.precedes(id(b()), id(d())));
    EXPECT_TRUE(order.precedes(id(d()), id(f())));
    // No path connects any node of the left child with any node of the right child.
    for (EventRef x : {a(), c(), e()})
        for (EventRef y : {b(), d(), f()})
            EXPECT_TRUE(order.unordered(id(x), id(y)));
    // The forks precede both children, and both children precede the joins.
    EXPECT_TRUE(order.precedes(g.event_id(ProcessId(0), 0), id(a())));
    EXPECT_TRUE(order.precedes(g.event_id(ProcessId(0), 1), id(b())));
    EXPECT_TRUE(order.precedes(id(e()), g.event_id(ProcessId(0), 2)));
    EXPECT_TRUE(order.precedes(id(f()), g.event_id(ProcessId(0), 3)));
}

TEST_F(ThesisExample, Figure2_1_ThreeApparentRaces) {
    ASSERT_EQ(result_.counts.apparent, 3u);
    const RaceAccesses queue = race_accesses(trace_, race(c(), d()));
    EXPECT_EQ(queue.conflicts.size(), 1u); // the queue
    EXPECT_EQ(trace_.describe(queue.conflicts.front()), "q.head");
    race(e(), b());
    race(e(), f());
}

TEST_F(ThesisExample, Figure7_1_SharedDataDependences) {
    // G_D: edges x_s -> y_f in both directions between the events of every apparent race.
    // Alg 7.2 keeps only the earliest target per process: e -> b implies e -> f.
    for (auto [x, y] : {std::pair{c(), d()}, {e(), b()}}) {
        EXPECT_TRUE(has_edge(EdgeKind::SharedData, x, y));
        EXPECT_TRUE(has_edge(EdgeKind::SharedData, y, x));
    }
    EXPECT_FALSE(has_edge(EdgeKind::SharedData, e(), f()));
    EXPECT_TRUE(has_edge(EdgeKind::SharedData, f(), e()));
    // The events of one child are never unordered with each other: no transitive dependence.
    for (const GraphEdge& edge : result_.edges)
        if (edge.kind == EdgeKind::SharedData) {
            EXPECT_FALSE(edge.transitive);
        }
}

TEST_F(ThesisExample, Figure7_2_ValidationWithSharedDataDependences) {
    // <e,f> is nontangled, hence feasible (Thm 7.1); <c,d> and <e,b> share one tangle.
    EXPECT_EQ(race(e(), f()).status, RaceStatus::Feasible);
    EXPECT_FALSE(race(e(), f()).tangle.has_value());
    ASSERT_TRUE(race(c(), d()).tangle.has_value());
    ASSERT_TRUE(race(e(), b()).tangle.has_value());
    EXPECT_EQ(*race(c(), d()).tangle, *race(e(), b()).tangle);
    EXPECT_EQ(result_.counts.tangles, 1u);
}

TEST_F(ThesisExample, Figure7_3_EventControlDependences) {
    // The removes read and write the queue: they may event-control each other.
    EXPECT_TRUE(has_edge(EdgeKind::EventControl, c(), d()));
    EXPECT_TRUE(has_edge(EdgeKind::EventControl, d(), c()));
    // The work events only write the array: no event-control edges between them.
    for (const GraphEdge& edge : result_.edges)
        if (edge.kind == EdgeKind::EventControl) {
            EXPECT_TRUE((edge.from == c() && edge.to == d()) ||
                        (edge.from == d() && edge.to == c()));
        }
}

TEST_F(ThesisExample, Figure7_4_ValidationWithEventControlDependences) {
    EXPECT_EQ(race(c(), d()).status, RaceStatus::FeasibleEc);  // the queue race (Thm 7.3)
    EXPECT_EQ(race(e(), b()).status, RaceStatus::Unvalidated); // infeasible in truth
    EXPECT_EQ(race(e(), f()).status, RaceStatus::Feasible);
}

TEST_F(ThesisExample, Figure8_1_OnlyTheQueueRaceIsFirst) {
    ASSERT_EQ(result_.counts.partitions, 3u);
    ASSERT_EQ(result_.counts.first_partitions, 1u);
    const Partition& first = result_.partitions.front();
    EXPECT_TRUE(first.first);
    EXPECT_EQ(first.race_count, 1u);
    EXPECT_EQ(partition_members(result_).front(), std::vector<std::uint32_t>{race(c(), d()).id});
    // Both work races are ordered after it, <e,f> after <e,b> too: e reaches itself in Ê*, b
    // reaches e through the queue race (b -> d Ê c -> e), and the nonatomicity of e caused by
    // b could change e's own accesses, so <e,f> may be an artifact of <e,b> (the Hasse diagram
    // keeps <c,d> -> <e,b> -> <e,f>).
    const std::uint32_t eb = race(e(), b()).partition, ef = race(e(), f()).partition;
    EXPECT_EQ(first.after, std::vector<std::uint32_t>{eb});
    EXPECT_EQ(result_.partitions[eb].after, std::vector<std::uint32_t>{ef});
    EXPECT_TRUE(result_.partitions[ef].after.empty());
    for (const Partition& p : result_.partitions)
        if (p.id != first.id) {
            EXPECT_FALSE(p.first);
        }
}

TEST_F(ThesisExample, CompleteOrderingValidatesTheQueueRaceDirectly) {
    // With the observed order, b finished before e started: no dependence e -> b, so the tangle
    // disappears and the remove race is feasible from G_D alone; it and <e,f> were actual.
    AnalysisOptions options;
    options.ordering = Ordering::Complete;
    result_ = analyze(trace_, options);
    EXPECT_EQ(race(c(), d()).status, RaceStatus::Feasible);
    EXPECT_EQ(race(e(), b()).status, RaceStatus::Unvalidated);
    EXPECT_EQ(race(e(), f()).status, RaceStatus::Feasible);
    EXPECT_EQ(result_.counts.tangles, 0u);
    EXPECT_EQ(race(c(), d()).actual, std::optional<bool>(true));
    EXPECT_EQ(race(e(), f()).actual, std::optional<bool>(true));
    EXPECT_EQ(race(e(), b()).actual, std::optional<bool>(false));
    ASSERT_EQ(result_.counts.first_partitions, 1u);
    EXPECT_EQ(partition_members(result_).front(), std::vector<std::uint32_t>{race(c(), d()).id});
}

} // namespace
} // namespace firstrace
