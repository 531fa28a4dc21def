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

#include <cstdint>
#include <vector>

#include "apparent_races.hpp"

namespace firstrace {

enum class DependenceKind : std::uint8_t { SharedData, EventControl };

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

// Whether a dependence x -> y is possible under the ordering mode.
inline bool dependence_allowed(const TemporalGraph& g, Ordering ordering, EventId x, EventId y) {
    if (ordering == Ordering::Approximate) return true;
    return !(g.event(y).clock_finish < g.event(x).clock_start);
}

// The events' clocks (complete ordering) in one array, for the per-race passes: on dense traces
// events are few and races many (1.4·10^4 events for 9.2·10^6 races on vars at 10^5 lines), and
// an event's record in the trace is three dependent loads away. Empty in approximate mode.
class EventClocks {
  public:
    EventClocks(const TemporalGraph& g, Ordering ordering) {
        if (ordering != Ordering::Complete) return;
        clocks_.reserve(g.event_count());
        for (const EventId e : g.events())
            clocks_.push_back({g.event(e).clock_start, g.event(e).clock_finish});
    }
    // dependence_allowed(g, ordering, x, y)
    bool allowed(EventId x, EventId y) const {
        return clocks_.empty() || !(clocks_[y.value].finish < clocks_[x.value].start);
    }
    // Complete mode: the two events overlapped in time.
    bool overlap(EventId x, EventId y) const {
        return !(clocks_[x.value].finish < clocks_[y.value].start) &&
               !(clocks_[y.value].finish < clocks_[x.value].start);
    }

  private:
    struct Clocks {
        std::uint64_t start, finish;
    };
    std::vector<Clocks> clocks_;
};

// Per event, its order class: events of one process between two of its nodes with a
// synchronization edge to or from another process (or a barrier episode) share one; two events
// of one class are unordered with exactly the same events of other processes. The transitive
// search remembers chains by these classes.
std::vector<std::uint32_t> order_classes(const TemporalGraph& g);

// The direct dependences of one kind as adjacency lists both ways (CSR by source and by
// target): two entries per race. Kept by the caller between the two kinds so that the second
// reuses the storage of the first (on dense traces these lists are tens of bytes per race, and
// fresh memory is what the stages spend most on: huge_pages.hpp).
struct DirectDependenceLists {
    std::vector<std::uint32_t> offsets; // per event: where its targets start
    std::vector<EventId> targets;       // ascending per source
    // Incoming lists, CSR by target, sources ascending; empty when the relation is symmetric
    // (every source's targets are its sources: shared data on dense traces), in which case the
    // lists by source serve both ways instead of a copy of 4 bytes a dependence.
    bool symmetric = false;
    std::vector<std::uint32_t> in_offsets;
    std::vector<EventId> in_sources;
    const std::vector<std::uint32_t>& incoming_offsets() const {
        return symmetric ? offsets : in_offsets;
    }
    const std::vector<EventId>& incoming_sources() const {
        return symmetric ? targets : in_sources;
    }
};

Dependences compute_dependences(const TemporalGraph& g, const EventOrder& order,
                                const UnorderedConflicts& conflicts, DependenceKind kind,
                                Ordering ordering, std::uint64_t budget,
                                const ProgressCallback& progress, DirectDependenceLists& lists);
Dependences compute_dependences(const TemporalGraph& g, const EventOrder& order,
                                const UnorderedConflicts& conflicts, DependenceKind kind,
                                Ordering ordering, std::uint64_t budget,
                                const ProgressCallback& progress);

} // namespace firstrace
