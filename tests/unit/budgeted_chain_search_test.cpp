// The transitive search's budget (dependences.cpp): which origins fall back to the superset
// depends on how many steps the exact search takes, and dependences.cpp counts the steps that
// are rejected at once (a target of a process on the path, or ordered with an event of the
// path) a run of targets at a time and finds the targets that pass by binary search. This
// test keeps the search as first written, one target per step, and checks that the edges,
// their transitive flags and the fallbacks are the same at every budget, on dense random
// traces where budgets run out at every depth of the search.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <tuple>

#include "apparent_races.hpp"
#include "dependences.hpp"
#include "test_support.hpp"

namespace firstrace {
namespace {

// The chain search of dependences.cpp one target per step, with the order classes of a path
// compared as sorted lists: the reference for the step count.
class OneStepAtATimeSearch {
  public:
    OneStepAtATimeSearch(const TemporalGraph& g, const EventOrder& order, Ordering ordering,
                         std::uint64_t budget, const DirectDependenceLists& lists)
        : g_(g), order_(order), ordering_(ordering), budget_(budget), lists_(lists),
          in_path_(g.process_count(), false), best_(g.process_count(), kNone),
          best_transitive_(g.process_count(), false), bound_(g.process_count(), kNone),
          order_class_(order_classes(g)) {}

    // Edges from orig (earliest per target process, with the transitive flag); false when the
    // budget ran out.
    bool run(EventId orig, std::vector<DependenceEdge>& all) {
        steps_ = 0;
        exhausted_ = false;
        seen_.clear();
        std::fill(best_.begin(), best_.end(), kNone);
        compute_bounds(orig);
        for (const EventId y : events(lists_.targets(orig)))
            record(y, false);
        path_.assign(1, orig);
        in_path_[g_.event_process(orig)] = true;
        if (open_ > 0) extend(orig);
        in_path_[g_.event_process(orig)] = false;
        if (exhausted_)
            for (const ProcessId q : g_.processes())
                if (bound_[q] != kNone) record(g_.event_id(q, bound_[q]), true);
        for (const ProcessId q : g_.processes())
            if (best_[q] != kNone)
                all.push_back({orig, g_.event_id(q, best_[q]), bool(best_transitive_[q])});
        return !exhausted_;
    }

  private:
    void record(EventId y, bool transitive) {
        const ProcessId q = g_.event_process(y);
        const std::uint32_t j = g_.event_index(y);
        if (best_[q] == kNone || j < best_[q]) {
            best_[q] = j;
            best_transitive_[q] = transitive;
            if (j == bound_[q]) --open_;
        }
    }
    static std::vector<EventId> events(const DependenceList& list) {
        std::vector<EventId> out;
        list.for_each([&](EventId e) { out.push_back(e); });
        return out;
    }
    bool has_target(EventId x, EventId y) const {
        const std::vector<EventId> targets = events(lists_.targets(x));
        return std::find(targets.begin(), targets.end(), y) != targets.end();
    }
    // Bounds as dependences.cpp defines them, found by a scan of every event.
    void compute_bounds(EventId orig) {
        open_ = 0;
        const ProcessId p = g_.event_process(orig);
        for (const ProcessId q : g_.processes()) {
            bound_[q] = kNone;
            if (q == p) continue;
            for (const EventId y : g_.process_events(q)) {
                if (order_.precedes(y, orig) || !dependence_allowed(g_, ordering_, orig, y))
                    continue;
                if (order_.precedes(orig, y)) break;
                bool step_in = false;
                for (const EventId w : events(lists_.sources(y)))
                    step_in |= g_.event_process(w) != p && order_.unordered(w, orig);
                if (has_target(orig, y) || step_in) {
                    bound_[q] = g_.event_index(y);
                    ++open_;
                    break;
                }
            }
        }
    }
    void extend(EventId x) {
        for (const ProcessId q : g_.processes()) {
            if (bound_[q] == kNone || in_path_[q] || best_[q] == bound_[q]) continue;
            const EventId y = g_.event_id(q, bound_[q]);
            if (has_target(x, y) && !step(y)) return;
        }
        for (const EventId y : events(lists_.targets(x)))
            if (!step(y)) return;
    }
    bool step(EventId y) {
        if (open_ == 0) return false;
        if (++steps_ > budget_) {
            exhausted_ = true;
            return false;
        }
        const ProcessId q = g_.event_process(y);
        if (in_path_[q]) return true;
        for (std::size_t k = 0; k + 1 < path_.size(); ++k)
            if (!order_.unordered(path_[k], y)) return true;
        path_.push_back(y);
        std::vector<std::uint32_t> classes;
        for (const EventId e : path_)
            classes.push_back(order_class_[e.value]);
        std::sort(classes.begin(), classes.end());
        bool subsumed = false;
        for (const auto& [event, set] : seen_)
            subsumed |=
                event == y && std::includes(classes.begin(), classes.end(), set.begin(), set.end());
        if (subsumed) {
            path_.pop_back();
            return true;
        }
        seen_.emplace_back(y, classes);
        if (path_.size() >= 3 && dependence_allowed(g_, ordering_, path_.front(), y))
            record(y, true);
        in_path_[q] = true;
        extend(y);
        in_path_[q] = false;
        path_.pop_back();
        return !(exhausted_ || open_ == 0);
    }

    const TemporalGraph& g_;
    const EventOrder& order_;
    Ordering ordering_;
    std::uint64_t budget_;
    const DirectDependenceLists& lists_;
    IdVector<ProcessId, bool> in_path_;
    std::vector<EventId> path_;
    IdVector<ProcessId, std::uint32_t> best_;
    IdVector<ProcessId, bool> best_transitive_;
    IdVector<ProcessId, std::uint32_t> bound_;
    std::uint32_t open_ = 0;
    std::vector<std::uint32_t> order_class_;
    std::vector<std::pair<EventId, std::vector<std::uint32_t>>> seen_;
    std::uint64_t steps_ = 0;
    bool exhausted_ = false;
};

bench::GeneratorParams dense_params(std::uint64_t seed) {
    std::mt19937_64 rng(seed * 6151 + 3);
    auto pick = [&](std::uint32_t lo, std::uint32_t hi) {
        return std::uniform_int_distribution<std::uint32_t>(lo, hi)(rng);
    };
    bench::GeneratorParams p;
    p.seed = seed + 5000;
    p.threads = pick(4, 6);
    p.locks = pick(0, 3);
    p.variables = pick(1, 3);
    p.operations = pick(80, 220);
    p.write_ratio = 0.4 + 0.1 * pick(0, 3);
    p.sync_ratio = 0.05 * pick(0, 6);
    p.protected_ratio = 0.1 * pick(0, 3);
    p.locations = pick(2, 6);
    p.nested_forks = pick(0, 1) == 1;
    return p;
}

auto edge_key(const DependenceEdge& e) {
    return std::tuple(e.from, e.to, e.transitive);
}

class BudgetedChainSearch : public ::testing::TestWithParam<std::uint64_t> {};

void expect_same_as_one_step_at_a_time(const TemporalGraph& g, const EventOrder& order,
                                       const UnorderedConflicts& conflicts) {
    for (const Ordering ordering : {Ordering::Approximate, Ordering::Complete})
        for (const DependenceKind kind : {DependenceKind::SharedData, DependenceKind::EventControl})
            for (const std::uint64_t budget :
                 {std::uint64_t(1), std::uint64_t(2), std::uint64_t(3), std::uint64_t(5),
                  std::uint64_t(9), std::uint64_t(17), std::uint64_t(40), std::uint64_t(150),
                  std::uint64_t(1000), std::uint64_t(1) << 40}) {
                SCOPED_TRACE(std::string(to_string(ordering)) + ", kind " +
                             std::to_string(int(kind)) + ", budget " + std::to_string(budget));
                const EventClocks clocks(g, ordering);
                DirectDependenceLists lists(g, conflicts, clocks);
                const Dependences fast =
                    compute_dependences(g, order, lists, clocks, kind, budget, {});
                OneStepAtATimeSearch reference(g, order, ordering, budget, lists);
                std::vector<DependenceEdge> all;
                std::uint64_t fallbacks = 0, origins = 0;
                for (const EventId e : g.events()) {
                    if (lists.targets(e).empty()) continue;
                    ++origins;
                    if (!reference.run(e, all)) ++fallbacks;
                }
                EXPECT_EQ(fast.origins, origins);
                EXPECT_EQ(fast.fallback_origins, fallbacks);
                // per origin the search lists its edges in the order it reached the processes
                std::vector<DependenceEdge> found = fast.all;
                const auto by_key = [](const DependenceEdge& x, const DependenceEdge& y) {
                    return edge_key(x) < edge_key(y);
                };
                std::sort(found.begin(), found.end(), by_key);
                std::sort(all.begin(), all.end(), by_key);
                ASSERT_EQ(found.size(), all.size());
                for (std::size_t i = 0; i < all.size(); ++i)
                    ASSERT_EQ(edge_key(found[i]), edge_key(all[i])) << "edge " << i;
            }
}

TEST_P(BudgetedChainSearch, SameEdgesAndFallbacksAsOneStepAtATime) {
    const Trace trace = test::parse_std(test::random_std(dense_params(GetParam())));
    const TemporalGraph g(trace);
    const NodeGraph graph = NodeGraph::of(g);
    // The search reads the vector timestamps directly where G has them (steps_through_run),
    // and asks EventOrder where G is indexed by intervals (timestamp budget 0): both.
    for (const std::uint64_t timestamp_budget : {std::uint64_t(1) << 32, std::uint64_t(0)}) {
        const GraphReachability ts(g, graph, strong_components(graph), timestamp_budget);
        ASSERT_EQ(ts.uses_timestamps(), timestamp_budget > 0);
        const EventOrder order(g, ts);
        const UnorderedConflicts conflicts = find_apparent_races(g, order, {});
        expect_same_as_one_step_at_a_time(g, order, conflicts);
    }
}

INSTANTIATE_TEST_SUITE_P(DenseTraces, BudgetedChainSearch, ::testing::Range<std::uint64_t>(1, 81));

// The direct dependence lists (taken a run of races with one a at a time, both directions in
// the same passes) against their definition: every (from, to) a race allows, sorted by source
// and by target.
class DirectDependenceListsByDefinition : public ::testing::TestWithParam<std::uint64_t> {};

TEST_P(DirectDependenceListsByDefinition, SameListsBothWays) {
    const Trace trace = test::parse_std(test::random_std(dense_params(GetParam())));
    const TemporalGraph g(trace);
    const NodeGraph graph = NodeGraph::of(g);
    const GraphReachability ts(g, graph, strong_components(graph), std::uint64_t(1) << 32);
    const EventOrder order(g, ts);
    const UnorderedConflicts conflicts = find_apparent_races(g, order, {});
    ASSERT_FALSE(conflicts.races.empty());
    bool in_place = false;
    for (const Ordering ordering : {Ordering::Approximate, Ordering::Complete}) {
        // one set of lists for the kinds in turn, as the pipeline (the second reuses the
        // first's storage), and the first kind again
        const EventClocks clocks(g, ordering);
        DirectDependenceLists lists(g, conflicts, clocks);
        for (const DependenceKind kind : {DependenceKind::SharedData, DependenceKind::EventControl,
                                          DependenceKind::SharedData}) {
            SCOPED_TRACE(std::string(to_string(ordering)) + ", kind " + std::to_string(int(kind)));
            std::vector<std::pair<std::uint32_t, std::uint32_t>> by_source;
            auto add = [&](const ApparentRace& r) {
                const bool shared = kind == DependenceKind::SharedData;
                if ((shared || r.a_writes_b_reads) && dependence_allowed(g, ordering, r.a, r.b))
                    by_source.emplace_back(r.a.value, r.b.value);
                if ((shared || r.b_writes_a_reads) && dependence_allowed(g, ordering, r.b, r.a))
                    by_source.emplace_back(r.b.value, r.a.value);
            };
            for (const ApparentRace& r : conflicts.races)
                add(r);
            for (const ApparentRace& r : conflicts.atomic_only)
                add(r);
            auto csr = [&](std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs) {
                std::sort(pairs.begin(), pairs.end());
                std::vector<std::uint32_t> offsets(g.event_count() + 1, 0), targets;
                for (const auto& [from, to] : pairs) {
                    ++offsets[from + 1];
                    targets.push_back(to);
                }
                for (std::uint32_t e = 0; e < g.event_count(); ++e)
                    offsets[e + 1] += offsets[e];
                return std::pair(offsets, targets);
            };
            std::vector<std::pair<std::uint32_t, std::uint32_t>> by_target;
            by_target.reserve(by_source.size());
            for (const auto& [from, to] : by_source)
                by_target.emplace_back(to, from);
            const auto [offsets, targets] = csr(by_source);
            const auto [in_offsets, in_sources] = csr(by_target);
            compute_dependences(g, order, lists, clocks, kind, 1, {});
            // the lists as CSR; empty() and any() agree
            auto flatten = [&](auto list_of) {
                std::vector<std::uint32_t> list_offsets(g.event_count() + 1, 0), list;
                for (const EventId e : g.events()) {
                    list_of(e).for_each([&](EventId y) { list.push_back(y.value); });
                    list_offsets[e.value + 1] = static_cast<std::uint32_t>(list.size());
                    const bool empty = list_offsets[e.value] == list_offsets[e.value + 1];
                    EXPECT_EQ(list_of(e).empty(), empty);
                    EXPECT_EQ(list_of(e).any([&](EventId y) { return y.value == list.back(); }),
                              !empty);
                }
                return std::pair(list_offsets, list);
            };
            const auto [listed_offsets, listed] =
                flatten([&](EventId e) { return lists.targets(e); });
            const auto [listed_in_offsets, listed_in] =
                flatten([&](EventId e) { return lists.sources(e); });
            EXPECT_EQ(listed_offsets, offsets);
            EXPECT_EQ(listed, targets);
            EXPECT_EQ(listed_in_offsets, in_offsets);
            EXPECT_EQ(listed_in, in_sources);
            // contains() per event against the list, for every event
            for (const EventId x : g.events())
                for (const EventId y : g.events()) {
                    const auto first = targets.begin() + offsets[x.value];
                    const auto last = targets.begin() + offsets[x.value + 1];
                    ASSERT_EQ(lists.targets(x).contains(y),
                              std::binary_search(first, last, y.value))
                        << x.value << " -> " << y.value;
                }
            // what the lists store themselves: the transposed races (one direction when
            // symmetric), the rest read in place; with atomic-only pairs, everything
            const std::size_t held = (lists.symmetric() ? 1 : 2) * targets.size();
            const std::size_t transposed = lists.symmetric() ? targets.size() / 2 : targets.size();
            EXPECT_EQ(lists.stored(), conflicts.atomic_only.empty() ? transposed : held);
            in_place |= lists.stored() < held;
        }
    }
    EXPECT_TRUE(in_place);
}

INSTANTIATE_TEST_SUITE_P(DenseTraces, DirectDependenceListsByDefinition,
                         ::testing::Range<std::uint64_t>(1, 41));

// The comparison proves little unless budgets run out part-way at several depths, runs of
// rejected targets are long, and the exact search also finishes: checked on the same traces.
TEST(BudgetedChainSearchCoverage, BudgetsRunOutAndSearchesFinish) {
    std::uint64_t partial = 0, finished = 0, transitive = 0;
    for (std::uint64_t seed = 1; seed < 81; ++seed) {
        const Trace trace = test::parse_std(test::random_std(dense_params(seed)));
        const TemporalGraph g(trace);
        const NodeGraph graph = NodeGraph::of(g);
        const GraphReachability ts(g, graph, strong_components(graph), std::uint64_t(1) << 32);
        const EventOrder order(g, ts);
        const UnorderedConflicts conflicts = find_apparent_races(g, order, {});
        const Dependences at40 = compute_dependences(
            g, order, conflicts, DependenceKind::SharedData, Ordering::Approximate, 40, {});
        const Dependences exact =
            compute_dependences(g, order, conflicts, DependenceKind::SharedData,
                                Ordering::Approximate, std::uint64_t(1) << 40, {});
        partial += at40.fallback_origins > 0 && at40.fallback_origins < at40.origins;
        finished += exact.fallback_origins == 0;
        for (const DependenceEdge& e : exact.all)
            transitive += e.transitive;
    }
    std::printf("budget 40 ran out for some origins of %llu traces; %llu transitive edges\n",
                (unsigned long long)partial, (unsigned long long)transitive);
    EXPECT_GE(partial, 15u);
    EXPECT_EQ(finished, 80u);
    EXPECT_GE(transitive, 100u);
}

} // namespace
} // namespace firstrace
