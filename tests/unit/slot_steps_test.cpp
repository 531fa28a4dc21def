// Vector timestamps as step functions along each process (reachability_steps.hpp, DESIGN-NOTES
// "Reachability on lock hand-overs") against brute force: every entry ts(n, q) and every
// reachability answer against a breadth-first search, on temporal graphs of random programs
// with locks, semaphores, barrier episodes (virtual nodes), forks and joins, plain and with
// random extra edges (as G_D and G_E add dependence edges) that make cyclic components; the
// budgets; the index GraphReachability picks; and the whole analysis on it against the one on
// the sparse timestamps.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "bfs_reachability.hpp"
#include "firstrace/analysis.hpp"
#include "reachability_index.hpp"
#include "reachability_steps.hpp"
#include "temporal_graph.hpp"
#include "test_support.hpp"

namespace firstrace {
namespace {

using test::bfs_reachability;

// T0 forks T1..T(n-1); then random steps: accesses, critical sections on two locks (acquires
// ordered after the latest release), semaphore posts and waits, barrier episodes of a random
// subset of the threads; T0 joins some threads at the end.
Trace random_sync_trace(std::uint64_t seed) {
    std::mt19937_64 rng(seed * 2654435761u + 17);
    auto pick = [&](std::uint64_t lo, std::uint64_t hi) {
        return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng);
    };
    Trace trace;
    trace.path = "sync-" + std::to_string(seed);
    trace.format = "std";
    const auto processes = static_cast<std::uint32_t>(pick(1, 5));
    for (std::uint32_t p = 0; p < processes; ++p) {
        Process process;
        process.name = "T" + std::to_string(p);
        process.parent = p == 0 ? kNone : 0;
        trace.processes.push_back(process);
        trace.locations.push_back({"sync.c", p + 1, 0, "f", 0, kNone});
    }
    trace.objects.push_back({SyncObjectKind::Lock, "L0", 0, 0});
    trace.objects.push_back({SyncObjectKind::Lock, "L1", 1, 0});
    trace.objects.push_back(
        {SyncObjectKind::Semaphore, "S", 2, static_cast<std::int64_t>(pick(0, 1))});
    trace.objects.push_back({SyncObjectKind::Barrier, "B", 3, 0});
    test::TraceEventBuilder events(trace, 4);
    for (std::uint32_t p = 1; p < processes; ++p)
        events.sync(0, EventKind::Fork, p);
    std::uint64_t episode = 0;
    const auto steps = pick(5, 50);
    for (std::uint64_t s = 0; s < steps; ++s) {
        const auto p = static_cast<std::uint32_t>(pick(0, processes - 1));
        switch (pick(0, 5)) {
        case 0:
        case 1:
            events.compute(p, {{pick(0, 3), static_cast<std::uint8_t>(pick(0, 1) ? kAccessWrite
                                                                                 : kAccessRead)}});
            break;
        case 2: {
            const auto lock = static_cast<std::uint32_t>(pick(0, 1));
            events.sync(p, EventKind::Acquire, lock);
            events.compute(p, {{4 + lock, kAccessWrite}});
            events.sync(p, EventKind::Release, lock);
            break;
        }
        case 3:
            events.sync(p, pick(0, 1) ? EventKind::SemPost : EventKind::SemWait, 2);
            break;
        case 4: { // a barrier episode of a subset of the threads
            std::vector<std::uint32_t> in;
            for (std::uint32_t q = 0; q < processes; ++q)
                if (pick(0, 2) != 0) in.push_back(q);
            for (const std::uint32_t q : in) {
                events.sync(q, EventKind::BarrierArrive, 3);
                trace.processes[q].events.back().counter = episode;
            }
            for (const std::uint32_t q : in) {
                events.sync(q, EventKind::BarrierDepart, 3);
                trace.processes[q].events.back().counter = episode;
            }
            ++episode;
            break;
        }
        default:
            events.sync(p, EventKind::Other, kNone);
            break;
        }
    }
    for (std::uint32_t p = 1; p < processes; ++p)
        if (pick(0, 2) != 0) events.sync(0, EventKind::Join, p);
    return trace;
}

// G plus random edges between nodes (dependence edges in G_D / G_E), some backwards.
NodeGraph with_random_edges(const TemporalGraph& g, std::mt19937_64& rng) {
    std::vector<Edge> edges = g.edges();
    const std::uint32_t n = g.node_count();
    const std::uint32_t extra = std::uniform_int_distribution<std::uint32_t>(0, 5)(rng);
    std::uniform_int_distribution<std::uint32_t> node(0, n - 1);
    for (std::uint32_t k = 0; k < extra && n > 1; ++k) {
        const NodeId a(node(rng)), b(node(rng));
        if (a != b) edges.emplace_back(a, b);
    }
    return NodeGraph::from_edges(n, std::move(edges));
}

std::uint64_t list_heads(const TemporalGraph& g) {
    return (std::uint64_t{g.process_count()} + (g.node_count() - g.process_node_count())) *
           std::max<std::uint32_t>(g.slot_count(), 1);
}

void expect_steps_match(const TemporalGraph& g, const NodeGraph& graph, std::uint64_t& changes,
                        std::uint64_t& virtual_nodes) {
    const Components comps = strong_components(graph);
    const auto ts =
        SlotStepTimestamps::build(g, graph, comps, std::uint64_t(1) << 40, std::uint64_t(1) << 40);
    ASSERT_TRUE(ts.has_value());
    const auto reach = bfs_reachability(graph);
    for (const NodeId n : g.nodes()) {
        std::vector<std::int32_t> expected(g.slot_count(), -1);
        for (const NodeId m : g.nodes())
            if (reach[m.value][n.value] && g.node_slot(m).valid())
                expected[g.node_slot(m).value] =
                    std::max(expected[g.node_slot(m).value],
                             static_cast<std::int32_t>(g.node_slot_serial(m)));
        for (std::uint32_t q = 0; q < g.slot_count(); ++q)
            ASSERT_EQ(ts->entry(n, q), expected[q]) << "node " << n.value << " slot " << q;
        for (const NodeId m : g.nodes())
            if (g.node_slot(m).valid()) {
                ASSERT_EQ(ts->reaches(m, n), bool(reach[m.value][n.value]))
                    << m.value << " -> " << n.value;
            }
    }
    changes += ts->change_count();
    virtual_nodes += g.node_count() - g.process_node_count();
    // Too small a budget of either kind: nullopt, not a partial index.
    if (ts->change_count() > 0) {
        EXPECT_FALSE(SlotStepTimestamps::build(g, graph, comps, std::uint64_t(1) << 40,
                                               ts->change_count() - 1)
                         .has_value());
    }
    EXPECT_TRUE(
        SlotStepTimestamps::build(g, graph, comps, list_heads(g), ts->change_count()).has_value());
    EXPECT_FALSE(
        SlotStepTimestamps::build(g, graph, comps, list_heads(g) - 1, std::uint64_t(1) << 40)
            .has_value());
}

TEST(SlotStepTimestamps, SyncProgramsMatchBreadthFirstSearch) {
    std::uint64_t changes = 0, virtual_nodes = 0, entries = 0;
    for (std::uint64_t seed = 1; seed <= 400; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        std::mt19937_64 rng(seed);
        const Trace trace = random_sync_trace(seed);
        const TemporalGraph g(trace);
        expect_steps_match(g, NodeGraph::of(g), changes, virtual_nodes);
        expect_steps_match(g, with_random_edges(g, rng), changes, virtual_nodes);
        entries += 2 * std::uint64_t{g.node_count()} * g.slot_count();
    }
    EXPECT_GT(virtual_nodes, 0u);    // barrier episodes were tested
    EXPECT_LT(changes * 4, entries); // the changes only, not whole rows
}

// GraphReachability takes the step lists when the sparse timestamps' rows exceed the budget
// and the list heads do not, and answers as breadth-first search does.
TEST(SlotStepTimestamps, TheIndexTakesThemBetweenRowsAndIntervals) {
    int steps = 0;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const Trace trace = random_sync_trace(seed);
        const TemporalGraph g(trace);
        const NodeGraph graph = NodeGraph::of(g);
        const Components comps = strong_components(graph);
        const GraphReachability ts(g, graph, comps, list_heads(g));
        if (ts.uses_timestamps()) continue; // the rows fit: no more than the heads
        ASSERT_TRUE(ts.uses_steps());
        ++steps;
        const auto reach = bfs_reachability(graph);
        for (const NodeId m : g.nodes())
            for (const NodeId n : g.nodes())
                if (g.node_slot(m).valid()) {
                    ASSERT_EQ(ts.reaches(m, n), bool(reach[m.value][n.value]));
                }
        EXPECT_FALSE(GraphReachability(g, graph, comps, list_heads(g) - 1).uses_steps());
    }
    EXPECT_GT(steps, 50);
}

// The whole analysis on the step lists (G's, G_D's and G_E's, a budget of the list heads) gives
// the result it gives on the sparse timestamps.
TEST(SlotStepTimestamps, TheAnalysisOnThemIsTheSame) {
    int compared = 0;
    for (std::uint64_t seed = 1; seed <= 150; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        bench::GeneratorParams params;
        params.seed = seed;
        params.threads = 2 + static_cast<std::uint32_t>(seed % 4);
        params.locks = 1 + static_cast<std::uint32_t>(seed % 3);
        params.variables = 1 + static_cast<std::uint32_t>(seed % 4);
        params.operations = 40 + static_cast<std::uint32_t>(seed % 80);
        params.sync_ratio = 0.1 + 0.05 * static_cast<double>(seed % 4);
        params.protected_ratio = 0.2 * static_cast<double>(seed % 5);
        params.nested_forks = seed % 2 == 0;
        Trace trace = test::parse_std(test::random_std(params));
        test::add_os_threads_and_atomics(trace, seed);
        const TemporalGraph g(trace);
        {
            const NodeGraph graph = NodeGraph::of(g);
            if (!GraphReachability(g, graph, strong_components(graph), list_heads(g)).uses_steps())
                continue;
        }
        ++compared;
        for (const Ordering ordering : {Ordering::Approximate, Ordering::Complete}) {
            AnalysisOptions rows, steps;
            rows.ordering = steps.ordering = ordering;
            steps.timestamp_budget = list_heads(g);
            const AnalysisResult x = analyze(trace, rows), y = analyze(trace, steps);
            ASSERT_EQ(x.races.size(), y.races.size());
            for (std::size_t i = 0; i < x.races.size(); ++i) {
                EXPECT_EQ(x.races[i].a, y.races[i].a) << "race " << i;
                EXPECT_EQ(x.races[i].b, y.races[i].b) << "race " << i;
                EXPECT_EQ(x.races[i].status, y.races[i].status) << "race " << i;
                EXPECT_EQ(x.races[i].tangle, y.races[i].tangle) << "race " << i;
                EXPECT_EQ(x.races[i].partition, y.races[i].partition) << "race " << i;
            }
            ASSERT_EQ(x.partitions.size(), y.partitions.size());
            for (std::size_t i = 0; i < x.partitions.size(); ++i) {
                EXPECT_EQ(x.partitions[i].first, y.partitions[i].first);
                EXPECT_EQ(x.partitions[i].race_count, y.partitions[i].race_count);
                EXPECT_EQ(x.partitions[i].after, y.partitions[i].after);
            }
            ASSERT_EQ(x.edges.size(), y.edges.size());
            for (std::size_t i = 0; i < x.edges.size(); ++i) {
                EXPECT_EQ(x.edges[i].kind, y.edges[i].kind) << "edge " << i;
                EXPECT_EQ(x.edges[i].from, y.edges[i].from) << "edge " << i;
                EXPECT_EQ(x.edges[i].to, y.edges[i].to) << "edge " << i;
                EXPECT_EQ(x.edges[i].transitive, y.edges[i].transitive) << "edge " << i;
            }
        }
    }
    EXPECT_GT(compared, 30);
}

// Earliest reach (Ê*'s reverse timestamps) by a reachability index and binary searches along
// the slot chains (dense budget 0) equals the dense table, at every process node and slot, on
// G and on G plus random edges (cycles: a node reaches its own start by a non-empty path only
// on one).
TEST(EarliestReach, SearchedAlongTheChainsEqualsTheDenseTable) {
    int cyclic = 0;
    for (std::uint64_t seed = 1; seed <= 300; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        std::mt19937_64 rng(seed + 77);
        const Trace trace = random_sync_trace(seed);
        const TemporalGraph g(trace);
        for (const NodeGraph& graph : {NodeGraph::of(g), with_random_edges(g, rng)}) {
            const Components comps = strong_components(graph);
            cyclic += comps.count < g.node_count() ? 1 : 0;
            const EarliestReach dense(g, graph, comps);
            const EarliestReach searched(g, graph, comps, 0);
            ASSERT_TRUE(dense.dense());
            ASSERT_FALSE(searched.dense());
            for (const NodeId n : g.nodes()) {
                if (!g.node_process(n).valid()) continue;
                for (const SlotId q : g.slots())
                    ASSERT_EQ(searched.earliest(n, q), dense.earliest(n, q))
                        << "node " << n.value << " slot " << q.value;
            }
        }
    }
    EXPECT_GT(cyclic, 20);
}

} // namespace
} // namespace firstrace
