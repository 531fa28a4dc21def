#include "reachability_index.hpp"

#include <algorithm>

namespace firstrace {

GraphReachability::GraphReachability(const TemporalGraph& g, const NodeGraph& graph,
                                     const Components& components, std::uint64_t timestamp_budget) {
    const std::uint64_t timestamp_entries =
        std::uint64_t(components.count) * std::max<std::uint32_t>(g.slot_count(), 1);
    if (timestamp_entries > timestamp_budget) {
        // No more bytes than the timestamps (an interval is two entries); offsets are 32-bit.
        const std::uint64_t interval_budget =
            std::min<std::uint64_t>(timestamp_entries / 2, std::uint64_t(1) << 31);
        intervals_ = ReachableIntervals::build(graph, components, interval_budget);
    }
    if (!intervals_) timestamps_.emplace(g, graph, components);
}

} // namespace firstrace
