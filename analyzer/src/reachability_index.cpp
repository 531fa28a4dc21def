#include "reachability_index.hpp"

#include <algorithm>
#include <limits>

namespace firstrace {

GraphReachability::GraphReachability(const TemporalGraph& g, const NodeGraph& graph,
                                     const Components& components, std::uint64_t timestamp_budget) {
    const std::uint64_t p = std::max<std::uint32_t>(g.slot_count(), 1);
    // Sparse timestamps keep a row at least at each process's first node: when even those
    // exceed the budget (a recursive task program, slots as many as leaf tasks), the interval
    // index without trying them. Their rows are never more than one per component, so
    // whenever the dense timestamps fit the budget they do too.
    std::uint64_t first_nodes = 0;
    for (const ProcessId q : g.processes())
        first_nodes += !g.process_events(q).empty();
    if (first_nodes * p <= timestamp_budget)
        timestamps_ = VectorTimestamps::build(g, graph, components, timestamp_budget);
    if (timestamps_) return;
    // No more bytes than dense timestamps (an interval or a change is two entries); offsets
    // are 32-bit. The step lists' heads (processes and virtual nodes x slots) within the
    // budget, as the sparse timestamps' first rows.
    const std::uint64_t dense_entries = std::uint64_t(components.count) * p;
    steps_ = SlotStepTimestamps::build(g, graph, components, timestamp_budget, dense_entries / 2);
    if (steps_) return;
    const std::uint64_t interval_budget =
        std::min<std::uint64_t>(dense_entries / 2, std::uint64_t(1) << 31);
    intervals_ = ReachableIntervals::build(graph, components, interval_budget);
    if (!intervals_)
        timestamps_ = VectorTimestamps::build(g, graph, components,
                                              std::numeric_limits<std::uint64_t>::max());
}

std::string GraphReachability::describe() const {
    if (timestamps_)
        return "sparse timestamps, " + std::to_string(timestamps_->checkpoint_count()) +
               " checkpoints, " + std::to_string(timestamps_->row_entries()) + " row entries";
    if (steps_) return "slot steps, " + std::to_string(steps_->change_count()) + " changes";
    return "intervals, " + std::to_string(intervals_->interval_count());
}

} // namespace firstrace
