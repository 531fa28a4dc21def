// Sparse vector timestamps (reachability.hpp, DESIGN-NOTES "Sparse vector timestamps") and the
// rank bit set under them (ranked_bits.hpp), against brute force: every entry ts(n, q) and
// every reachability answer against a breadth-first search, on temporal graphs of random
// multi-threaded lock programs and fork/join task trees, plain and with random extra edges
// (as G_D and G_E add dependence edges) that make cyclic components.
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>

#include "bfs_reachability.hpp"
#include "ranked_bits.hpp"
#include "reachability.hpp"
#include "temporal_graph.hpp"
#include "test_support.hpp"

namespace firstrace {
namespace {

using test::bfs_reachability;

TEST(RankedBits, RankCountsTheBitsBefore) {
    std::mt19937_64 rng(7);
    for (int round = 0; round < 200; ++round) {
        const std::uint32_t size = std::uniform_int_distribution<std::uint32_t>(0, 700)(rng);
        const double density = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
        std::bernoulli_distribution pick(density);
        RankedBits bits(size);
        std::vector<bool> reference(size, false);
        for (std::uint32_t i = 0; i < size; ++i)
            if (pick(rng)) {
                bits.set(i);
                reference[i] = true;
            }
        bits.finish();
        std::uint32_t before = 0;
        for (std::uint32_t i = 0; i <= size; ++i) {
            ASSERT_EQ(bits.rank(i), before) << "size " << size << " at " << i;
            if (i < size) {
                ASSERT_EQ(bits.test(i), reference[i]);
                before += reference[i] ? 1 : 0;
            }
        }
        EXPECT_EQ(bits.count(), before);
    }
}

// An STD trace: threads T0..T(n-1) forked by T0, each doing accesses and critical sections on a
// few locks, in a random interleaving; T0 joins some of them at the end.
std::string random_lock_program(std::mt19937_64& rng) {
    auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    const int threads = pick(1, 5);
    std::string text;
    for (int t = 1; t < threads; ++t)
        text += "T0|fork(T" + std::to_string(t) + ")|m.c:1\n";
    std::vector<int> held(threads, -1); // the lock each thread holds, or -1
    std::vector<int> holder(3, -1);
    const int steps = pick(5, 60);
    for (int s = 0; s < steps; ++s) {
        const int t = pick(0, threads - 1);
        const std::string name = "T" + std::to_string(t);
        const int what = pick(0, 3);
        if (what == 0 && held[t] < 0) {
            const int lock = pick(0, 2);
            if (holder[lock] >= 0) continue;
            holder[lock] = t;
            held[t] = lock;
            text += name + "|acq(L" + std::to_string(lock) + ")|m.c:2\n";
        } else if (what == 1 && held[t] >= 0) {
            text += name + "|rel(L" + std::to_string(held[t]) + ")|m.c:3\n";
            holder[held[t]] = -1;
            held[t] = -1;
        } else {
            text += name + "|" + (pick(0, 1) ? "w" : "r") + "(V" + std::to_string(pick(0, 3)) +
                    ")|m.c:4\n";
        }
    }
    for (int t = 0; t < threads; ++t)
        if (held[t] >= 0)
            text += "T" + std::to_string(t) + "|rel(L" + std::to_string(held[t]) + ")|m.c:3\n";
    for (int t = 1; t < threads; ++t)
        if (pick(0, 2) != 0) text += "T0|join(T" + std::to_string(t) + ")|m.c:5\n";
    return text;
}

// Every entry and every reachability answer of the sparse timestamps against the definition
// (ts(n, q) = the largest slot serial of a node of slot q reaching n, or -1), and that the rows
// are no more than one per component, and fewer than the nodes on lock programs.
void expect_timestamps_match(const TemporalGraph& g, const NodeGraph& graph,
                             std::uint64_t& checkpoints, std::uint64_t& nodes) {
    const Components comps = strong_components(graph);
    const auto ts = VectorTimestamps::build(g, graph, comps, std::uint64_t(1) << 40);
    ASSERT_TRUE(ts.has_value());
    const std::uint32_t p = std::max<std::uint32_t>(g.slot_count(), 1);
    EXPECT_LE(ts->row_entries(), std::uint64_t(comps.count) * p);
    const auto reach = bfs_reachability(graph);
    for (const NodeId n : g.nodes()) {
        std::vector<std::int32_t> expected(p, -1);
        for (const NodeId m : g.nodes())
            if (reach[m.value][n.value] && g.node_slot(m).valid())
                expected[g.node_slot(m).value] =
                    std::max(expected[g.node_slot(m).value],
                             static_cast<std::int32_t>(g.node_slot_serial(m)));
        for (std::uint32_t q = 0; q < g.slot_count(); ++q)
            ASSERT_EQ(ts->entry(n, q), expected[q]) << "node " << n.value << " slot " << q;
        // The row of n as a whole, as taken for many queries (row(n), and row(n, position)
        // with n's position given), against the same definition.
        const VectorTimestamps::Row row = ts->row(n);
        std::optional<VectorTimestamps::Row> row_at;
        if (g.node_slot(n).valid()) {
            const TemporalGraph::SlotPosition at = g.process_node_position(n);
            ASSERT_EQ(at.slot, g.node_slot(n)) << "node " << n.value;
            ASSERT_EQ(at.serial, g.node_slot_serial(n)) << "node " << n.value;
            row_at.emplace(ts->row(n, at));
        }
        for (std::uint32_t q = 0; q < g.slot_count(); ++q) {
            ASSERT_EQ(row[q], expected[q]) << "node " << n.value << " slot " << q;
            if (row_at) {
                ASSERT_EQ((*row_at)[q], expected[q]) << "node " << n.value;
            }
        }
        for (const NodeId m : g.nodes()) {
            if (g.node_slot(m).valid()) {
                const bool expect = reach[m.value][n.value];
                ASSERT_EQ(ts->reaches(m, n), expect) << m.value << " -> " << n.value;
                // m prepared as the source of many queries, against n and n's row
                const VectorTimestamps::Source from = ts->source(m);
                ASSERT_EQ(ts->reaches(from, n), expect) << m.value << " -> " << n.value;
                ASSERT_EQ(VectorTimestamps::reaches(from, row), expect)
                    << m.value << " -> row " << n.value;
            }
        }
    }
    checkpoints += ts->checkpoint_count();
    nodes += g.node_count();
    // Within the budget of dense timestamps, always built (GraphReachability relies on it).
    EXPECT_TRUE(VectorTimestamps::build(g, graph, comps, std::uint64_t(comps.count) * p));
    // Too small a budget: nullopt, not a partial index.
    if (ts->row_entries() > 0) {
        EXPECT_FALSE(VectorTimestamps::build(g, graph, comps, ts->row_entries() - 1).has_value());
    }
}

// G plus random edges between process nodes (dependence edges in G_D / G_E), some backwards:
// cyclic components.
NodeGraph with_random_edges(const TemporalGraph& g, std::mt19937_64& rng) {
    std::vector<Edge> edges = g.edges();
    const std::uint32_t n = g.node_count();
    const std::uint32_t extra = std::uniform_int_distribution<std::uint32_t>(0, 4)(rng);
    std::uniform_int_distribution<std::uint32_t> node(0, n - 1);
    for (std::uint32_t k = 0; k < extra && n > 1; ++k) {
        const NodeId a(node(rng)), b(node(rng));
        if (a != b) edges.emplace_back(a, b);
    }
    return NodeGraph::from_edges(n, std::move(edges));
}

TEST(VectorTimestamps, LockProgramsMatchBreadthFirstSearch) {
    std::uint64_t checkpoints = 0, nodes = 0;
    for (std::uint64_t seed = 1; seed <= 300; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        std::mt19937_64 rng(seed);
        const Trace trace = test::parse_std(random_lock_program(rng));
        const TemporalGraph g(trace);
        expect_timestamps_match(g, NodeGraph::of(g), checkpoints, nodes);
        expect_timestamps_match(g, with_random_edges(g, rng), checkpoints, nodes);
    }
    EXPECT_LT(checkpoints * 2, nodes); // sparse: most nodes read their process's checkpoint
}

// Fork/join trees of tasks with lock edges between them (processes ending and new ones taking
// over their slots).
TEST(VectorTimestamps, TaskTreesMatchBreadthFirstSearch) {
    std::uint64_t checkpoints = 0, nodes = 0;
    for (std::uint64_t seed = 1; seed <= 150; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        std::mt19937_64 rng(seed);
        std::string text;
        int next = 1;
        auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
        // Depth first: a task forks children that run to their end at once.
        auto task = [&](auto&& self, int id, int depth) -> void {
            const std::string t = "T" + std::to_string(id);
            text += t + "|w(V" + std::to_string(pick(0, 3)) + ")|t.c:1\n";
            std::vector<int> children;
            for (int c = depth < 3 ? pick(0, 3) : 0; c > 0; --c) {
                const int child = next++;
                text += t + "|fork(T" + std::to_string(child) + ")|t.c:2\n";
                self(self, child, depth + 1);
                children.push_back(child);
                if (pick(0, 2) == 0) {
                    text += t + "|acq(L0)|t.c:3\n" + t + "|r(V1)|t.c:4\n" + t + "|rel(L0)|t.c:5\n";
                }
            }
            for (int child : children)
                if (pick(0, 3) != 0) text += t + "|join(T" + std::to_string(child) + ")|t.c:6\n";
            if (pick(0, 1)) text += t + "|acq(L0)|t.c:3\n" + t + "|rel(L0)|t.c:5\n";
        };
        task(task, 0, 0);
        const Trace trace = test::parse_std(text);
        const TemporalGraph g(trace);
        expect_timestamps_match(g, NodeGraph::of(g), checkpoints, nodes);
        expect_timestamps_match(g, with_random_edges(g, rng), checkpoints, nodes);
    }
    EXPECT_LT(checkpoints, nodes);
}

} // namespace
} // namespace firstrace
