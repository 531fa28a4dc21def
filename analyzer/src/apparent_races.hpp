// Apparent data races (Def 4.4, Alg 6.3 semantics): computation events of different processes,
// unordered by G, with a data conflict. Conflicts are found by sweeping addresses, and for each
// address only the window of events of another process that is unordered with a given event is
// visited, so the cost follows the conflicts rather than all unordered pairs.
#pragma once

#include <vector>

#include "firstrace/analysis.hpp"
#include "reachability.hpp"

namespace firstrace {

struct ApparentRace {
    EventId a = kNone; // the event of the lower process id
    EventId b = kNone;
    std::vector<Interval> conflicts; // merged conflicting addresses
    bool a_writes_b_reads = false;   // WRITE(a) ∩ READ(b) != ∅: a may event-control b
    bool b_writes_a_reads = false;
};

// Ordering of events in a graph given by its timestamps (Alg 6.2).
class EventOrder {
  public:
    EventOrder(const TemporalGraph& g, const VectorTimestamps& ts) : g_(&g), ts_(&ts) {}
    // Path from x's finish to y's start.
    bool precedes(EventId x, EventId y) const {
        return ts_->reaches(g_->finish_node(x), g_->start_node(y));
    }
    bool unordered(EventId x, EventId y) const { return !precedes(x, y) && !precedes(y, x); }

  private:
    const TemporalGraph* g_;
    const VectorTimestamps* ts_;
};

// Races sorted by (a, b).
std::vector<ApparentRace> find_apparent_races(const TemporalGraph& g, const EventOrder& order,
                                              const ProgressCallback& progress);

} // namespace firstrace
