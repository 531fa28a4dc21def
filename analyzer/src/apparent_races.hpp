// Apparent data races (Def 4.4, Alg 6.3 semantics): computation events of different processes,
// unordered by G, with a data conflict. Conflicts are found by sweeping addresses, and for each
// address only the window of events of another process that is unordered with a given event is
// visited, so the cost follows the conflicts rather than all unordered pairs.
//
// Conflicts (DESIGN-NOTES "Atomic and plain accesses", "Private storage of logical processes"):
// two accesses to the same byte conflict when at least one writes. A conflict is a data race
// unless both accesses are atomic (C11/C++11: atomic accesses never race with each other, an
// atomic and a plain access to the same bytes do). Conflicting atomic accesses are still
// dependences (a relaxed load's value depends on which store it read), so unordered event pairs
// whose only conflicts are atomic are returned too, for the dependence computation only: those
// it needs, which for an event with partners in one other process only are its earliest there
// (apparent_races.cpp, AtomicPartnerLists; DESIGN-NOTES "Atomic-only pairs of unlinked
// events"). Bytes private to the OS thread both processes ran on (Trace::private_to_both)
// conflict not at all.
#pragma once

#include <vector>

#include "apparent_race_list.hpp"
#include "dense_group_bitmaps.hpp"
#include "firstrace/analysis.hpp"
#include "reachability_index.hpp"

namespace firstrace {

struct UnorderedConflicts {
    ApparentRaceList races; // data races, sorted by (a, b)
    // Pairs whose conflicts are all atomic-atomic, sorted: every one with an end that has
    // partners in two other processes; of the others, the earliest per (event, other process)
    // in each ordering mode, also for Ê (their flags may be a subset of the pair's).
    std::vector<ApparentRace> atomic_only;
    // Per event, when the atomic-only pairs of linked events were over the sweep's budget: the
    // events that kept only their earliest partners where a chain through them may need more
    // (empty: none; the dependences of any origin unordered with one are the conservative
    // superset, dependences.cpp).
    std::vector<bool> approximated;
};

// Ordering of events in a graph given by its timestamps (Alg 6.2).
class EventOrder {
  public:
    EventOrder(const TemporalGraph& g, const GraphReachability& ts) : g_(&g), ts_(&ts) {}
    // Path from x's finish to y's start.
    bool precedes(EventId x, EventId y) const {
        return ts_->reaches(g_->finish_node(x), g_->start_node(y));
    }
    bool unordered(EventId x, EventId y) const { return !precedes(x, y) && !precedes(y, x); }
    // The vector timestamps behind precedes, or null when G is indexed by intervals.
    const VectorTimestamps* timestamps() const { return ts_->timestamps(); }

  private:
    const TemporalGraph* g_;
    const GraphReachability* ts_;
};

// `dense` says which groups of incidences the sweep reads by bitmap (dense_group_bitmaps.hpp):
// the result is the same for every rule, tests force all or none. `atomic_pair_budget`
// bounds the atomic-only partners linked events would visit (AnalysisOptions).
UnorderedConflicts find_apparent_races(const TemporalGraph& g, const EventOrder& order,
                                       const ProgressCallback& progress,
                                       const DenseGroupRule& dense = {},
                                       std::uint64_t atomic_pair_budget = kDefaultAtomicPairBudget);

} // namespace firstrace
