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

EarliestReach::EarliestReach(const TemporalGraph& g, const NodeGraph& graph,
                             const Components& components, std::uint64_t dense_budget)
    : g_(&g), p_(std::max<std::uint32_t>(g.slot_count(), 1)), comp_(components.of) {
    if (std::uint64_t(components.count) * p_ <= dense_budget) {
        er_ = earliest_reach_by_component(
            graph, components, p_,
            [&](NodeId v) {
                return g.is_start_node(v) ? g.event_slot(g.node_event(v)) : SlotId::none();
            },
            [&](NodeId v) { return g.event_slot_position(g.node_event(v)); });
        return;
    }
    index_ = std::make_unique<GraphReachability>(g, graph, components, std::uint64_t(1) << 26);
    cyclic_.assign(components.count, false);
    std::vector<bool> seen(components.count, false);
    for (const std::uint32_t c : components.of) {
        if (seen[c]) cyclic_[c] = true;
        seen[c] = true;
    }
}

EarliestReach::~EarliestReach() = default;
EarliestReach::EarliestReach(EarliestReach&&) noexcept = default;
EarliestReach& EarliestReach::operator=(EarliestReach&&) noexcept = default;

std::uint32_t EarliestReach::searched(NodeId n, SlotId q) const {
    const std::vector<EventId>& chain = g_->slot_events(q);
    // The first position whose start node n reaches (reflexive): a suffix of the chain.
    std::uint32_t lo = 0, hi = static_cast<std::uint32_t>(chain.size());
    while (lo < hi) {
        const std::uint32_t mid = lo + (hi - lo) / 2;
        if (index_->reaches(n, g_->start_node(chain[mid])))
            hi = mid;
        else
            lo = mid + 1;
    }
    if (lo == chain.size()) return kNone;
    // n itself, reached by a non-empty path only on a cycle; else the next start of the chain
    // (n reaches it along the chain).
    if (g_->start_node(chain[lo]) == n && !cyclic_[comp_[n]])
        return lo + 1 < chain.size() ? lo + 1 : kNone;
    return lo;
}

} // namespace firstrace
