// Exact reachability between the nodes of G, G_D or G_E, by whichever index fits: sparse vector
// timestamps (checkpoints x slots entries, O(1) queries) while they stay within the budget,
// else the interval index (reachability_intervals.hpp, O(log) queries), whose size follows
// the nesting of the program rather than its width. If the interval index would be larger
// than dense timestamps the timestamps are built anyway (DESIGN-NOTES "Reachability index",
// "Sparse vector timestamps").
#pragma once

#include <cstdint>
#include <optional>

#include "reachability.hpp"
#include "reachability_intervals.hpp"

namespace firstrace {

class GraphReachability {
  public:
    GraphReachability(const TemporalGraph& g, const NodeGraph& graph, const Components& components,
                      std::uint64_t timestamp_budget);
    // Path from `from` to `to` (reflexive).
    bool reaches(NodeId from, NodeId to) const {
        return timestamps_ ? timestamps_->reaches(from, to) : intervals_->reaches(from, to);
    }
    bool uses_timestamps() const { return timestamps_.has_value(); }
    const VectorTimestamps* timestamps() const { return timestamps_ ? &*timestamps_ : nullptr; }

  private:
    std::optional<VectorTimestamps> timestamps_;
    std::optional<ReachableIntervals> intervals_;
};

} // namespace firstrace
