// Reachability as sets of intervals of component ids: the index used when vector timestamps
// (components x slots) would not fit in memory, as in recursive task programs where the
// largest antichain of G, hence the number of slots, grows with the number of leaf tasks
// (DESIGN-NOTES "Reachability index").
//
// Strong component ids of strong_components() are a reverse topological order of the
// condensation (a DFS post-order), so everything a component c reaches has an id <= c.
// reach(c) = {c} ∪ reach(d) for the successors d of c, kept as sorted disjoint intervals
// of ids (the interval labelling of Agrawal, Borgida and Jagadish, SIGMOD 1989, over the
// post-order of the whole DFS rather than of a spanning tree). In a fork/join program a
// component reaches its own process' rest, and its ancestors' rests after their joins: a few
// intervals per nesting level, where a vector timestamp has one entry per slot.
//
// Most components extend the one numbered just below them (a process' next node finishes
// just before it in the DFS): when c - 1 is a successor of c and reaches every other
// successor, reach(c) = reach(c - 1) ∪ {c}, and c stores no list of its own but the
// component that does (its base b): reach(c) = reach(b) ∪ [b + 1, c].
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "firstrace/page_array.hpp"
#include "reachability.hpp"

namespace firstrace {

class ReachableIntervals {
  public:
    // Nullopt when the index would hold more than `interval_budget` intervals.
    static std::optional<ReachableIntervals>
    build(const NodeGraph& graph, const Components& components, std::uint64_t interval_budget);

    // Whether a path from `from` to `to` exists (reflexive, as VectorTimestamps::reaches).
    bool reaches(NodeId from, NodeId to) const { return component_reaches(comp_[from], comp_[to]); }
    bool component_reaches(std::uint32_t from, std::uint32_t to) const;

    std::uint64_t interval_count() const { return lo_.size(); }

  private:
    struct Interval {
        std::uint32_t lo, hi; // inclusive
    };
    ReachableIntervals() = default;

    IdVector<NodeId, std::uint32_t> comp_; // node -> component
    std::vector<std::uint32_t> base_;      // component -> the component whose list it extends
    std::vector<std::uint32_t> first_;     // base component -> its first interval; count + 1
    // The intervals of each base component, ascending; lo and hi apart so that the binary
    // search reads only the his. Grown in place (page_array.hpp): on GLib's mutex stress
    // (1.6·10^7 events, 146 threads) they are most of the graph stage, and a std::vector grown
    // by doubling, then shrunk by a copy, held up to three times their size at once (DESIGN-NOTES
    // "Analysis memory on dense real traces").
    PageArray<std::uint32_t> lo_, hi_;
};

} // namespace firstrace
