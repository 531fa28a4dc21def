// Exact reachability between the nodes of G, G_D or G_E, by whichever index fits: sparse vector
// timestamps (checkpoints x slots entries, O(1) queries) while they stay within the budget,
// else, while processes x slots do, the same timestamps as step functions along each process
// (reachability_steps.hpp, O(log) queries, the changed entries only: lock hand-overs between
// many threads), else the interval index (reachability_intervals.hpp, O(log) queries), whose
// size follows the nesting of the program rather than its width. If the interval index would be
// larger than dense timestamps the timestamps are built anyway (DESIGN-NOTES "Reachability index",
// "Sparse vector timestamps").
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "reachability.hpp"
#include "reachability_intervals.hpp"
#include "reachability_steps.hpp"

namespace firstrace {

class GraphReachability {
  public:
    GraphReachability(const TemporalGraph& g, const NodeGraph& graph, const Components& components,
                      std::uint64_t timestamp_budget);
    // Path from `from` to `to` (reflexive).
    bool reaches(NodeId from, NodeId to) const {
        if (timestamps_) return timestamps_->reaches(from, to);
        return steps_ ? steps_->reaches(from, to) : intervals_->reaches(from, to);
    }
    bool uses_timestamps() const { return timestamps_.has_value(); }
    bool uses_steps() const { return steps_.has_value(); }
    const VectorTimestamps* timestamps() const { return timestamps_ ? &*timestamps_ : nullptr; }
    // Which index and its size, for benchmarks.
    std::string describe() const;

  private:
    std::optional<VectorTimestamps> timestamps_;
    std::optional<SlotStepTimestamps> steps_;
    std::optional<ReachableIntervals> intervals_;
};

} // namespace firstrace
