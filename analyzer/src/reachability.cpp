#include "reachability.hpp"

#include <algorithm>
#include <utility>

#include "strong_components.hpp"

namespace firstrace {

// By value: callers move their edge list in, and it is freed when the graph is built.
// NOLINTNEXTLINE(performance-unnecessary-value-param)
NodeGraph NodeGraph::from_edges(std::uint32_t node_count, std::vector<Edge> edges) {
    NodeGraph g;
    g.node_count = node_count;
    g.offsets.assign(node_count + 1, 0);
    for (const auto& e : edges)
        ++g.offsets[e.first.value + 1];
    for (std::uint32_t v = 0; v < node_count; ++v)
        g.offsets[v + 1] += g.offsets[v];
    g.targets.resize(edges.size());
    std::vector<std::uint32_t> fill(g.offsets.begin(), g.offsets.end() - 1);
    for (const auto& e : edges)
        g.targets[fill[e.first.value]++] = e.second;
    return g;
}

NodeGraph NodeGraph::of(const TemporalGraph& g) {
    NodeGraph out;
    out.node_count = g.node_count();
    const std::uint32_t n = out.node_count;
    // The nodes of a process are consecutive ids (process order).
    const auto has_process_successor = [&](std::uint32_t v) {
        return v + 1 < n && g.node_process(NodeId(v)).valid() &&
               g.node_process(NodeId(v)) == g.node_process(NodeId(v + 1));
    };
    out.offsets.assign(std::size_t{n} + 1, 0);
    for (std::uint32_t v = 0; v < n; ++v)
        out.offsets[v + 1] += has_process_successor(v) ? 1 : 0;
    for (const auto& [from, to] : g.sync_edges())
        ++out.offsets[from.value + 1];
    for (std::uint32_t v = 0; v < n; ++v)
        out.offsets[v + 1] += out.offsets[v];
    out.targets.resize(out.offsets[n]);
    // The offsets serve as fill cursors (each moves to its node's end, the next node's start),
    // then are shifted back: no third node-sized array. Process successors first, then the
    // synchronization edges in their order, as g.edges() lists them.
    for (std::uint32_t v = 0; v < n; ++v)
        if (has_process_successor(v)) out.targets[out.offsets[v]++] = NodeId(v + 1);
    for (const auto& [from, to] : g.sync_edges())
        out.targets[out.offsets[from.value]++] = to;
    for (std::uint32_t v = n; v > 0; --v)
        out.offsets[v] = out.offsets[v - 1];
    out.offsets[0] = 0;
    return out;
}

// The one component search of the analysis (strong_components.hpp) on the CSR arrays as they
// are: roots in node order, successors in edge order, so ids are a DFS post-order of the
// condensation (what reachability_intervals.hpp relies on), the numbering Boost.Graph's
// strong_components gives. Boost needed a copy of the edge list and a graph of its own besides
// its work arrays, about 30 bytes per node and 16 per edge more at the peak of a 10^6-task
// analysis (issue 10); this needs one word per node and the search's stacks.
Components strong_components(const NodeGraph& graph) {
    struct Successors {
        const NodeGraph& graph;
        std::uint32_t node_count() const { return graph.node_count; }
        std::uint32_t next_successor(std::uint32_t v, std::uint32_t& cursor) const {
            const std::uint32_t i = graph.offsets[v] + cursor;
            if (i >= graph.offsets[v + 1]) return kNone;
            ++cursor;
            return graph.targets[i].value;
        }
    };
    StrongComponents found = firstrace::strong_components(Successors{graph}, kNone);
    return {IdVector<NodeId, std::uint32_t>(std::move(found.of)), found.count};
}

ComponentMembers::ComponentMembers(const Components& c)
    : begin(c.count + 1, 0), nodes(c.of.size()) {
    for (auto comp : c.of)
        ++begin[comp + 1];
    for (std::uint32_t i = 0; i < c.count; ++i)
        begin[i + 1] += begin[i];
    std::vector<std::uint32_t> fill(begin.begin(), begin.end() - 1);
    for (const NodeId v : ids<NodeId>(c.of.size()))
        nodes[fill[c.of[v]]++] = v;
}

VectorTimestamps::VectorTimestamps(const TemporalGraph& g, const NodeGraph& graph,
                                   const Components& components)
    : g_(&g), p_(std::max<std::uint32_t>(g.slot_count(), 1)), comp_(components.of),
      ts_(static_cast<std::size_t>(components.count) * p_, -1) {
    const ComponentMembers members(components);
    for (const NodeId v : graph.nodes()) {
        const SlotId q = g.node_slot(v);
        if (!q.valid()) continue;
        auto& slot = ts_[static_cast<std::size_t>(comp_[v]) * p_ + q.value];
        slot = std::max(slot, static_cast<std::int32_t>(g.node_slot_serial(v)));
    }
    // Topological order of the condensation = decreasing component id.
    for (std::uint32_t c = components.count; c-- > 0;) {
        const std::int32_t* src = &ts_[static_cast<std::size_t>(c) * p_];
        for (std::uint32_t i = members.begin[c]; i < members.begin[c + 1]; ++i) {
            graph.for_each_successor(members.nodes[i], [&](NodeId w) {
                const std::uint32_t d = comp_[w];
                if (d == c) return;
                std::int32_t* dst = &ts_[static_cast<std::size_t>(d) * p_];
                for (std::uint32_t q = 0; q < p_; ++q)
                    dst[q] = std::max(dst[q], src[q]);
            });
        }
    }
}

EarliestReach::EarliestReach(const TemporalGraph& g, const NodeGraph& graph,
                             const Components& components)
    : p_(std::max<std::uint32_t>(g.slot_count(), 1)), comp_(components.of),
      er_(earliest_reach_by_component(
          graph, components, p_,
          [&](NodeId v) {
              return g.is_start_node(v) ? g.event_slot(g.node_event(v)) : SlotId::none();
          },
          [&](NodeId v) { return g.event_slot_position(g.node_event(v)); })) {}

} // namespace firstrace
