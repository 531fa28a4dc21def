// strong_components.hpp (Pearce's one-word search on a successor cursor) against two
// references on random graphs: Boost.Graph's strong_components, whose numbering it must
// reproduce exactly (reachability_intervals.hpp relies on the post-order numbering), and a
// brute-force transitive closure (same component iff each reaches the other; an edge between
// components goes from a higher to a lower id).
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>
#include <random>
#include <vector>

#include "strong_components.hpp"

namespace firstrace {
namespace {

constexpr std::uint32_t kEnd = ~std::uint32_t{0};

struct AdjacencyGraph {
    std::vector<std::vector<std::uint32_t>> successors;
    std::uint32_t node_count() const { return static_cast<std::uint32_t>(successors.size()); }
    std::uint32_t next_successor(std::uint32_t v, std::uint32_t& cursor) const {
        return cursor < successors[v].size() ? successors[v][cursor++] : kEnd;
    }
};

AdjacencyGraph random_graph(std::mt19937& rng, std::uint32_t n, double density, bool dag) {
    AdjacencyGraph g;
    g.successors.resize(n);
    std::bernoulli_distribution edge(density);
    for (std::uint32_t u = 0; u < n; ++u)
        for (std::uint32_t v = 0; v < n; ++v)
            if ((!dag || u < v) && edge(rng)) g.successors[u].push_back(v);
    // Successor order is part of the numbering: shuffle it.
    for (auto& s : g.successors)
        std::shuffle(s.begin(), s.end(), rng);
    return g;
}

std::vector<std::uint32_t> boost_components(const AdjacencyGraph& g) {
    using BoostGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
    BoostGraph bg(g.node_count());
    for (std::uint32_t u = 0; u < g.node_count(); ++u)
        for (const std::uint32_t v : g.successors[u])
            boost::add_edge(u, v, bg);
    std::vector<std::uint32_t> of(g.node_count());
    boost::strong_components(
        bg, boost::make_iterator_property_map(of.begin(), boost::get(boost::vertex_index, bg)));
    return of;
}

std::vector<std::vector<bool>> closure(const AdjacencyGraph& g) {
    const std::uint32_t n = g.node_count();
    std::vector<std::vector<bool>> reach(n, std::vector<bool>(n, false));
    for (std::uint32_t u = 0; u < n; ++u) {
        reach[u][u] = true;
        for (const std::uint32_t v : g.successors[u])
            reach[u][v] = true;
    }
    for (std::uint32_t k = 0; k < n; ++k)
        for (std::uint32_t i = 0; i < n; ++i)
            if (reach[i][k])
                for (std::uint32_t j = 0; j < n; ++j)
                    if (reach[k][j]) reach[i][j] = true;
    return reach;
}

TEST(StrongComponents, MatchesBoostAndClosureOnRandomGraphs) {
    std::mt19937 rng(20261123);
    std::uniform_int_distribution<std::uint32_t> size(0, 40);
    const double densities[] = {0.0, 0.02, 0.05, 0.1, 0.3};
    for (int round = 0; round < 400; ++round) {
        const std::uint32_t n = size(rng);
        const double density = densities[round % 5];
        const bool dag = round % 7 == 0;
        const AdjacencyGraph g = random_graph(rng, n, density, dag);
        const StrongComponents c = strong_components(g, kEnd);
        ASSERT_EQ(c.of, boost_components(g)) << "round " << round << ", " << n << " nodes";
        const auto reach = closure(g);
        std::uint32_t max_id = 0;
        for (std::uint32_t u = 0; u < n; ++u) {
            max_id = std::max(max_id, c.of[u] + 1);
            for (std::uint32_t v = 0; v < n; ++v)
                ASSERT_EQ(c.of[u] == c.of[v], reach[u][v] && reach[v][u])
                    << "round " << round << ": nodes " << u << ", " << v;
            for (const std::uint32_t v : g.successors[u])
                ASSERT_GE(c.of[u], c.of[v]) << "round " << round << ": edge " << u << "->" << v;
        }
        ASSERT_EQ(c.count, max_id);
        if (dag) {
            ASSERT_EQ(c.count, n);
        }
    }
}

// A path of 10^6 nodes closed into one cycle: the search must not recurse on the call stack.
TEST(StrongComponents, LongCycleIsOneComponentWithoutRecursion) {
    AdjacencyGraph g;
    const std::uint32_t n = 1'000'000;
    g.successors.resize(n);
    for (std::uint32_t v = 0; v < n; ++v)
        g.successors[v].push_back((v + 1) % n);
    const StrongComponents c = strong_components(g, kEnd);
    EXPECT_EQ(c.count, 1u);
    EXPECT_EQ(c.of.front(), 0u);
    EXPECT_EQ(c.of.back(), 0u);
}

} // namespace
} // namespace firstrace
