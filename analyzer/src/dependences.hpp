// Shared-data (D̂) and event-control (Ê) dependences between events unordered by G
// (thesis 7.2.1, Alg 7.1-7.4; DESIGN step 4).
//
// Direct: between the two events of an unordered conflicting pair, a data race or a pair whose
// conflicts are all between atomic accesses (not a race, but the value an atomic load returns
// depends on the order of the stores, so reordering them may change the events: keeping these
// dependences keeps validation sound); Ê only where WRITE(a) ∩ READ(b) ≠ ∅.
// Transitive: a chain of direct dependences whose events are all mutually unordered by G
// ("closure by definition"). Alg 7.3/7.4 search such chains with one visited mark per event and
// stop at the first conflicting event of a process, which can miss chains that continue only
// from a later event; we search all chains (they are at most p events long, one per process)
// and keep the thesis' edge compaction: per source event and target process only the earliest
// target is stored, the later ones being implied by process order (Alg 7.2).
//
// Direction (DESIGN step 4): approximate ordering allows both directions; complete ordering
// forbids x -> y when y finished before x started (for transitive edges, at the end points).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "apparent_races.hpp"
#include "direct_dependence_lists.hpp"

namespace firstrace {

struct DependenceEdge {
    EventId from; // edge from_s -> to_f in G_D / G_E
    EventId to;
    bool transitive = false;
};

struct Dependences {
    std::vector<DependenceEdge> direct; // compacted direct edges only
    std::vector<DependenceEdge> all;    // compacted direct + transitive edges
    std::uint64_t origins = 0;          // events with a direct dependence
    std::uint64_t fallback_origins = 0; // of which the exact search ran out of budget
};

// One past the last event of an ascending list of event numbers starting at `first` that is
// below `limit` (the end of first's process: the list's run of one process), by galloping.
inline const std::uint32_t* end_of_process(const std::uint32_t* first, const std::uint32_t* last,
                                           EventId limit) {
    std::ptrdiff_t lo = 1, hi = 1;
    const std::ptrdiff_t n = last - first;
    while (hi < n && first[hi] < limit.value) {
        lo = hi + 1;
        hi = 2 * hi + 1;
    }
    if (hi > n) hi = n;
    return std::lower_bound(first + lo, first + hi, limit.value);
}

// Per event, its order class: events of one process between two of its nodes with a
// synchronization edge to or from another process (or a barrier episode) share one; two events
// of one class are unordered with exactly the same events of other processes. The transitive
// search remembers chains by these classes.
std::vector<std::uint32_t> order_classes(const TemporalGraph& g);

// The dependences of one kind from the direct lists of both (lists.select(kind)).
Dependences compute_dependences(const TemporalGraph& g, const EventOrder& order,
                                DirectDependenceLists& lists, const EventClocks& clocks,
                                DependenceKind kind, std::uint64_t budget,
                                const ProgressCallback& progress);
// The same with lists of its own.
Dependences compute_dependences(const TemporalGraph& g, const EventOrder& order,
                                const UnorderedConflicts& conflicts, DependenceKind kind,
                                Ordering ordering, std::uint64_t budget,
                                const ProgressCallback& progress);

} // namespace firstrace
