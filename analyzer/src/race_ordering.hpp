// Ordering apparent races into partitions (thesis ch. 8; DESIGN step 5), without Alg 8.1's
// O(r²) loop.
//
// Ê* is reachability in G plus the direct event-control edges moved to start -> start (end of
// 8.2): x Ê* y iff x = y or y_s is reachable from x_s. Reflexive, because Lemma 8.1's proof
// (and so Thm 8.2) uses b Ê b: a race's nonatomicity can change its own events' accesses, so
// a race sharing event b with an earlier one may be its artifact. For every node we compute,
// per process q, the earliest event of q whose start is reachable by a non-empty path
// (EarliestReach); er(e)[q] is that, or e itself on its own process. Race x = <a,b> R̂-orders
// race y iff y has an event at or after m_x[q] = max(er(a)[q], er(b)[q]) in that event's
// process q. The graph of races and per-process event chains
//     race x -> chain(q, m_x[q]),  chain(q, i) -> chain(q, i+1),  chain(e) -> races of event e
// has a path from race x to race y exactly when x R̂* y, so its strongly connected components
// are the partitions (Def 8.2), in O((r + n)·p). race_ordering.cpp searches only the graph of
// its race events (a race's two events are its only predecessors, so it is in the component
// of the event it reaches back, or alone) and passes over the races two or three times.
#pragma once

#include <vector>

#include "dependences.hpp"
#include "firstrace/packed_id_column.hpp"

namespace firstrace {

struct OrderingOutcome {
    std::vector<Partition> partitions; // ids: first partitions first, then topological order;
                                       // each race is in exactly one
    PackedIdColumn partition_of_race;  // race id -> partition id
};

OrderingOutcome order_races(const TemporalGraph& g, const ApparentRaceList& races,
                            const std::vector<DependenceEdge>& direct_event_control,
                            const ProgressCallback& progress);

} // namespace firstrace
