// The ordering stage alone (race_ordering.cpp) against R̂* closed pairwise from its definition
// (thesis Def 8.1, 8.2; the brute force of reference_analysis.cpp, with bitset rows so that
// traces with a few thousand races fit): partitions, first flags, the DAG and the numbering, on
// random traces with more threads, locks and races than the whole-analysis differential tests
// can afford, so that partitions of many races, races alone, chains of partitions and
// components reached only along a chain all occur (DifferentialOrdering.CoversTheCases
// checks that they do).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "apparent_races.hpp"
#include "dependences.hpp"
#include "race_ordering.hpp"
#include "reference_analysis.hpp"
#include "test_support.hpp"

namespace firstrace {
namespace {

bench::GeneratorParams ordering_params_for(std::uint64_t seed) {
    std::mt19937_64 rng(seed * 6151 + 3);
    auto pick = [&](std::uint32_t lo, std::uint32_t hi) {
        return std::uniform_int_distribution<std::uint32_t>(lo, hi)(rng);
    };
    bench::GeneratorParams p;
    p.seed = seed + 5000;
    p.threads = pick(2, 8);
    p.locks = pick(1, 4);
    p.variables = pick(1, 5);
    p.operations = pick(40, 320);
    p.write_ratio = 0.1 * pick(2, 6);
    p.sync_ratio = 0.05 * pick(1, 8);
    p.protected_ratio = 0.1 * pick(0, 6);
    p.locations = pick(2, 8);
    p.nested_forks = pick(0, 1) == 1;
    return p;
}

using Bits = std::vector<std::uint64_t>;
bool test_bit(const Bits& row, std::size_t j) {
    return (row[j / 64] >> (j % 64)) & 1;
}
void set_bit(Bits& row, std::size_t j) {
    row[j / 64] |= std::uint64_t(1) << (j % 64);
}

// The ordering from the definitions: x R̂ y iff both events of x Ê*-reach one event of y
// (Ê*: paths in G plus the direct event-control edges moved to start -> start, an event
// reaching itself: DESIGN-NOTES "Ê* is reflexive");
// partitions are the classes of mutual R̂* reachability (a race alone is one too), a partition
// is first when no race of another partition R̂*-precedes it, and the DAG is the Hasse diagram.
struct ReferenceOrdering {
    std::vector<std::uint32_t> partition_of;
    std::vector<bool> first;
    std::vector<std::set<std::uint32_t>> after;
};

ReferenceOrdering reference_ordering(const TemporalGraph& g, const ApparentRaceList& races,
                                     const std::vector<DependenceEdge>& direct) {
    std::vector<Edge> ehat = g.edges();
    for (const auto& e : direct)
        ehat.emplace_back(g.start_node(e.from), g.start_node(e.to));
    const reference::Reachability E(g.node_count(), ehat);
    auto estar = [&](EventId x, EventId y) {
        return x == y || E.reaches_nonempty(g.start_node(x), g.start_node(y));
    };
    const std::size_t r = races.size(), words = (r + 63) / 64;
    std::vector<Bits> closure(r, Bits(words, 0));
    for (std::size_t i = 0; i < r; ++i)
        for (std::size_t j = 0; j < r; ++j) {
            const ApparentRace &x = races[i], &y = races[j];
            if ((estar(x.a, y.a) && estar(x.b, y.a)) || (estar(x.a, y.b) && estar(x.b, y.b)))
                set_bit(closure[i], j);
        }
    for (std::size_t k = 0; k < r; ++k) // Warshall
        for (std::size_t i = 0; i < r; ++i)
            if (test_bit(closure[i], k))
                for (std::size_t w = 0; w < words; ++w)
                    closure[i][w] |= closure[k][w];
    ReferenceOrdering out;
    out.partition_of.assign(r, kNone);
    std::uint32_t count = 0;
    for (std::size_t i = 0; i < r; ++i) {
        if (out.partition_of[i] != kNone) continue;
        for (std::size_t j = i; j < r; ++j)
            if (j == i || (test_bit(closure[i], j) && test_bit(closure[j], i)))
                out.partition_of[j] = count;
        ++count;
    }
    std::vector<std::vector<bool>> before(count, std::vector<bool>(count, false));
    out.first.assign(count, true);
    for (std::size_t i = 0; i < r; ++i)
        for (std::size_t j = 0; j < r; ++j) {
            const std::uint32_t P = out.partition_of[i], Q = out.partition_of[j];
            if (P == Q || !test_bit(closure[i], j)) continue;
            before[P][Q] = true;
            out.first[Q] = false;
        }
    out.after.resize(count);
    for (std::uint32_t P = 0; P < count; ++P)
        for (std::uint32_t Q = 0; Q < count; ++Q) {
            if (!before[P][Q]) continue;
            bool between = false;
            for (std::uint32_t X = 0; X < count && !between; ++X)
                between = before[P][X] && before[X][Q];
            if (!between) out.after[P].insert(Q);
        }
    return out;
}

struct Coverage {
    std::size_t traces = 0, large_partitions = 0, races_alone = 0, dag_edges = 0,
                later_partitions = 0;
};

void check_ordering(const Trace& trace, Ordering ordering, const std::string& label,
                    Coverage& coverage) {
    SCOPED_TRACE(label);
    const TemporalGraph g(trace);
    const NodeGraph graph = NodeGraph::from_edges(g.node_count(), g.edges());
    const Components comps = strong_components(graph);
    const GraphReachability ts(g, graph, comps, kDefaultTimestampBudget);
    const EventOrder order(g, ts);
    const UnorderedConflicts conflicts = find_apparent_races(g, order, {});
    const ApparentRaceList& races = conflicts.races;
    if (races.empty() || races.size() > 3000) return;
    const Dependences event_control = compute_dependences(
        g, order, conflicts, DependenceKind::EventControl, ordering, 1u << 20, {});
    const OrderingOutcome fast = order_races(g, races, event_control.direct, {});
    const ReferenceOrdering ref = reference_ordering(g, races, event_control.direct);

    ++coverage.traces;
    ASSERT_EQ(fast.partition_of_race.size(), races.size());
    std::vector<std::uint32_t> fast_of(races.size()), smallest(fast.partitions.size(), kNone);
    std::vector<std::uint64_t> race_count(fast.partitions.size(), 0);
    for (std::uint32_t x = 0; x < races.size(); ++x) {
        fast_of[x] = fast.partition_of_race[x];
        ASSERT_LT(fast_of[x], fast.partitions.size()) << "race " << x;
        ++race_count[fast_of[x]];
        smallest[fast_of[x]] = std::min(smallest[fast_of[x]], x);
    }
    for (std::size_t id = 0; id < fast.partitions.size(); ++id) {
        const Partition& p = fast.partitions[id];
        ASSERT_EQ(p.id, id);
        ASSERT_GT(p.race_count, 0u);
        EXPECT_EQ(p.race_count, race_count[id]) << "partition " << id;
        coverage.large_partitions += p.race_count > 1;
        coverage.races_alone += p.race_count == 1;
        coverage.dag_edges += p.after.size();
        coverage.later_partitions += !p.first;
    }
    ASSERT_EQ(fast.partitions.size(), ref.first.size());
    for (std::size_t i = 0; i < races.size(); ++i)
        for (std::size_t j = i + 1; j < races.size(); ++j)
            ASSERT_EQ(fast_of[i] == fast_of[j], ref.partition_of[i] == ref.partition_of[j])
                << "races " << i << ", " << j;
    for (const Partition& p : fast.partitions) {
        const std::uint32_t rp = ref.partition_of[smallest[p.id]];
        EXPECT_EQ(p.first, bool(ref.first[rp])) << "first flag of partition " << p.id;
        std::set<std::uint32_t> after;
        for (std::uint32_t q : p.after) {
            EXPECT_GT(q, p.id) << "ids follow a topological order";
            after.insert(ref.partition_of[smallest[q]]);
        }
        EXPECT_EQ(after, ref.after[rp]) << "DAG successors of partition " << p.id;
    }
    for (std::size_t i = 1; i < fast.partitions.size(); ++i)
        EXPECT_FALSE(!fast.partitions[i - 1].first && fast.partitions[i].first)
            << "first partitions take the lowest ids";
}

TEST(DifferentialOrdering, PartitionsFirstFlagsAndDagMatchTheDefinition) {
    Coverage coverage;
    for (std::uint64_t seed = 1; seed <= 120; ++seed) {
        const Trace trace = test::parse_std(test::random_std(ordering_params_for(seed)));
        for (Ordering ordering : {Ordering::Approximate, Ordering::Complete})
            check_ordering(trace, ordering,
                           "seed " + std::to_string(seed) + ", " + to_string(ordering), coverage);
    }
    // The cases the stage distinguishes all occur.
    EXPECT_GT(coverage.traces, 150u);
    EXPECT_GT(coverage.large_partitions, 100u);
    EXPECT_GT(coverage.races_alone, 100u);
    EXPECT_GT(coverage.dag_edges, 100u);
    EXPECT_GT(coverage.later_partitions, 100u);
}

} // namespace
} // namespace firstrace
