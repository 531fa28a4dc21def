// The reachability index (reachability_intervals.hpp, reachability_index.hpp) against a
// brute-force breadth-first search: random DAGs, random cyclic graphs, and temporal graphs of
// random fork/join task trees with lock edges between the tasks, where the index is what the
// analysis uses once vector timestamps exceed their budget.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "bfs_reachability.hpp"
#include "reachability_index.hpp"
#include "reachability_intervals.hpp"
#include "temporal_graph.hpp"
#include "test_support.hpp"

namespace firstrace {
namespace {

using test::bfs_reachability;

// n nodes; edges u -> v with u < v (a DAG) or any (cycles), each with probability `density`.
NodeGraph random_graph(std::mt19937_64& rng, std::uint32_t n, double density, bool cyclic) {
    std::bernoulli_distribution edge(density);
    std::vector<Edge> edges;
    for (std::uint32_t u = 0; u < n; ++u)
        for (std::uint32_t v = 0; v < n; ++v)
            if (u != v && (cyclic || u < v) && edge(rng)) edges.emplace_back(NodeId(u), NodeId(v));
    std::shuffle(edges.begin(), edges.end(), rng); // successor order must not matter
    return NodeGraph::from_edges(n, std::move(edges));
}

void expect_index_matches_bfs(const NodeGraph& graph, const std::string& label) {
    SCOPED_TRACE(label);
    const Components comps = strong_components(graph);
    const auto index = ReachableIntervals::build(graph, comps, std::uint64_t(1) << 40);
    ASSERT_TRUE(index.has_value());
    const auto reach = bfs_reachability(graph);
    for (const NodeId u : graph.nodes())
        for (const NodeId v : graph.nodes())
            ASSERT_EQ(index->reaches(u, v), bool(reach[u.value][v.value]))
                << u.value << " -> " << v.value;
}

// strong_components on a NodeGraph against the definition: two nodes are in one
// component iff each reaches the other, and component ids are a reverse topological order of
// the condensation (an edge never leads to a larger id), which the timestamp propagation and
// the interval index rely on.
TEST(NodeGraphComponents, RandomGraphsMatchMutualReachability) {
    std::mt19937_64 rng(31);
    for (int round = 0; round < 300; ++round) {
        SCOPED_TRACE(round);
        const std::uint32_t n = std::uniform_int_distribution<std::uint32_t>(1, 60)(rng);
        const double density = std::uniform_real_distribution<double>(0.0, 0.1)(rng);
        const NodeGraph graph = random_graph(rng, n, density, true);
        const Components comps = strong_components(graph);
        const auto reach = bfs_reachability(graph);
        std::vector<bool> used(comps.count, false);
        for (const NodeId u : graph.nodes()) {
            ASSERT_LT(comps.of[u], comps.count);
            used[comps.of[u]] = true;
            for (const NodeId v : graph.nodes())
                ASSERT_EQ(comps.of[u] == comps.of[v],
                          reach[u.value][v.value] && reach[v.value][u.value])
                    << u.value << ", " << v.value;
            graph.for_each_successor(u, [&](NodeId w) { ASSERT_LE(comps.of[w], comps.of[u]); });
        }
        for (std::uint32_t c = 0; c < comps.count; ++c)
            EXPECT_TRUE(used[c]) << "component " << c << " is empty";
    }
}

TEST(ReachableIntervals, RandomDagsMatchBreadthFirstSearch) {
    std::mt19937_64 rng(11);
    for (int round = 0; round < 300; ++round) {
        const std::uint32_t n = std::uniform_int_distribution<std::uint32_t>(1, 60)(rng);
        const double density = std::uniform_real_distribution<double>(0.0, 0.2)(rng);
        expect_index_matches_bfs(random_graph(rng, n, density, false),
                                 "DAG round " + std::to_string(round));
    }
}

TEST(ReachableIntervals, RandomCyclicGraphsMatchBreadthFirstSearch) {
    std::mt19937_64 rng(23);
    for (int round = 0; round < 300; ++round) {
        const std::uint32_t n = std::uniform_int_distribution<std::uint32_t>(1, 60)(rng);
        const double density = std::uniform_real_distribution<double>(0.0, 0.08)(rng);
        expect_index_matches_bfs(random_graph(rng, n, density, true),
                                 "cyclic round " + std::to_string(round));
    }
}

TEST(ReachableIntervals, StopsAtTheBudget) {
    std::mt19937_64 rng(5);
    const NodeGraph graph = random_graph(rng, 200, 0.02, false);
    const Components comps = strong_components(graph);
    const auto full = ReachableIntervals::build(graph, comps, std::uint64_t(1) << 40);
    ASSERT_TRUE(full.has_value());
    ASSERT_GT(full->interval_count(), 1u);
    EXPECT_FALSE(ReachableIntervals::build(graph, comps, full->interval_count() - 1).has_value());
    EXPECT_TRUE(ReachableIntervals::build(graph, comps, full->interval_count()).has_value());
}

// A random task tree executed depth first, as an STD trace: each task accesses variables,
// forks children (each runs to its end at once, a valid interleaving), takes locks around
// some accesses (edges across the tree), and joins all, some or none of its children, in a
// random order (unjoined children are left concurrent with the rest of the program).
struct TaskTreeWriter {
    std::mt19937_64 rng;
    std::string text;
    int next_task = 1;
    int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }
    void access(const std::string& t) {
        text += t + "|" + (pick(0, 1) ? "w" : "r") + "(V" + std::to_string(pick(0, 4)) +
                ")|t.c:" + std::to_string(pick(1, 9)) + "\n";
        if (pick(0, 3) == 0) {
            const std::string lock = "L" + std::to_string(pick(0, 1));
            text += t + "|acq(" + lock + ")|t.c:20\n";
            text += t + "|w(V" + std::to_string(pick(5, 6)) + ")|t.c:21\n";
            text += t + "|rel(" + lock + ")|t.c:22\n";
        }
    }
    void task(int id, int depth) {
        const std::string t = "T" + std::to_string(id);
        access(t);
        std::vector<int> children;
        const int count = depth < 4 ? pick(0, 3) : 0;
        for (int c = 0; c < count; ++c) {
            const int child = next_task++;
            text += t + "|fork(T" + std::to_string(child) + ")|t.c:30\n";
            task(child, depth + 1);
            children.push_back(child);
            if (pick(0, 1)) access(t);
        }
        std::shuffle(children.begin(), children.end(), rng);
        for (int child : children)
            if (pick(0, 4) != 0) text += t + "|join(T" + std::to_string(child) + ")|t.c:31\n";
        access(t);
    }
};

// NodeGraph::of builds G's CSR form from the graph's own arrays: the same successors in the
// same order as from_edges over g.edges() (the component numbering depends on the order), and
// the node coordinates it and every stage read agree with the events' own nodes.
TEST(NodeGraph, OfTheTemporalGraphEqualsTheGraphOfItsEdges) {
    for (std::uint64_t seed = 1; seed <= 100; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        TaskTreeWriter writer{std::mt19937_64(seed), {}, 1};
        writer.task(0, 0);
        const Trace trace = test::parse_std(writer.text);
        const TemporalGraph g(trace);
        const NodeGraph direct = NodeGraph::of(g);
        const NodeGraph listed = NodeGraph::from_edges(g.node_count(), g.edges());
        ASSERT_EQ(direct.node_count, listed.node_count);
        ASSERT_EQ(direct.offsets, listed.offsets);
        ASSERT_EQ(direct.targets, listed.targets);
        for (const ProcessId p : g.processes()) {
            std::uint32_t serial = 0;
            for (const EventId e : g.process_events(p)) {
                const bool computation = g.event(e).kind == EventKind::Computation;
                ASSERT_EQ(g.is_computation(e), computation);
                ASSERT_EQ(g.finish_node(e).value, g.start_node(e).value + (computation ? 1 : 0));
                for (NodeId v = g.start_node(e); v.value <= g.finish_node(e).value;
                     v = NodeId(v.value + 1)) {
                    ASSERT_EQ(g.node_process(v), p);
                    ASSERT_EQ(g.node_event(v), e);
                    ASSERT_EQ(g.node_serial(v), serial++);
                }
            }
        }
    }
}

TEST(GraphReachability, TaskTreesWithLocksMatchBreadthFirstSearch) {
    int indexed = 0;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        TaskTreeWriter writer{std::mt19937_64(seed), {}, 1};
        writer.task(0, 0);
        const Trace trace = test::parse_std(writer.text);
        const TemporalGraph g(trace);
        const NodeGraph graph = NodeGraph::from_edges(g.node_count(), g.edges());
        const Components comps = strong_components(graph);
        // Budget 0: the interval index whenever it is no larger than the timestamps.
        const GraphReachability index(g, graph, comps, 0);
        const GraphReachability timestamps(g, graph, comps, std::uint64_t(1) << 40);
        ASSERT_TRUE(timestamps.uses_timestamps());
        indexed += index.uses_timestamps() ? 0 : 1;
        const auto reach = bfs_reachability(graph);
        for (const NodeId u : g.nodes())
            for (const NodeId v : g.nodes()) {
                ASSERT_EQ(index.reaches(u, v), bool(reach[u.value][v.value]))
                    << u.value << " -> " << v.value;
                ASSERT_EQ(timestamps.reaches(u, v), bool(reach[u.value][v.value]))
                    << u.value << " -> " << v.value;
            }
    }
    EXPECT_GT(indexed, 150); // the comparison must exercise the index, not the fallback
}

} // namespace
} // namespace firstrace
