#include "reachability.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "strong_components.hpp"

namespace firstrace {

void PendingRows::raise(std::uint32_t c, const std::int32_t* from) {
    auto [it, inserted] = row_of_.try_emplace(c, 0);
    if (inserted) {
        if (free_rows_.empty()) {
            it->second = static_cast<std::uint32_t>(pool_.size() / p_);
            pool_.resize(pool_.size() + p_);
        } else {
            it->second = free_rows_.back();
            free_rows_.pop_back();
        }
        std::fill_n(&pool_[static_cast<std::size_t>(it->second) * p_], p_, -1);
    }
    raise_entries(&pool_[static_cast<std::size_t>(it->second) * p_], from, p_);
}

void PendingRows::take(std::uint32_t c, std::int32_t* into) {
    const auto it = row_of_.find(c);
    if (it == row_of_.end()) return;
    raise_entries(into, &pool_[static_cast<std::size_t>(it->second) * p_], p_);
    free_rows_.push_back(it->second);
    row_of_.erase(it);
}

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

ComponentMembers::ComponentMembers(const Components& c) : nodes_(c.of.size()) {
    if (c.count == c.of.size()) { // one node each: nodes_ is the inverse of c.of
        for (const NodeId v : ids<NodeId>(c.of.size()))
            nodes_[c.of[v]] = v;
        return;
    }
    begin_.assign(c.count + 1, 0);
    for (auto comp : c.of)
        ++begin_[comp + 1];
    for (std::uint32_t i = 0; i < c.count; ++i)
        begin_[i + 1] += begin_[i];
    std::vector<std::uint32_t> fill(begin_.begin(), begin_.end() - 1);
    for (const NodeId v : ids<NodeId>(c.of.size()))
        nodes_[fill[c.of[v]]++] = v;
}

std::optional<VectorTimestamps> VectorTimestamps::build(const TemporalGraph& g,
                                                        const NodeGraph& graph,
                                                        const Components& components,
                                                        std::uint64_t entry_budget) {
    const std::uint32_t p = std::max<std::uint32_t>(g.slot_count(), 1);
    const std::uint32_t n = graph.node_count;
    VectorTimestamps ts(g, p);
    const ComponentMembers members(components);
    const auto& comp = components.of;
    // Upper bounds of the checkpoints and of their rows: nodes without an edge from their
    // process predecessor and targets of any other edge, one row each; the members of a
    // cyclic component, one row for all. On the graphs of the analysis (every process-order
    // edge there) the bound is exceeded only by a budget check of the walk's own, kept anyway.
    RankedBits process_in(n), other_in(n);
    for (const NodeId v : graph.nodes())
        graph.for_each_successor(v, [&](NodeId w) {
            if (is_process_edge(g, v, w))
                process_in.set(w.value);
            else
                other_in.set(w.value);
        });
    std::uint64_t checkpoint_bound = 0, row_bound = 0;
    for (std::uint32_t c = 0; c < components.count; ++c) {
        const std::uint32_t size = members.begin(c + 1) - members.begin(c);
        const NodeId v = members.node(members.begin(c));
        const bool kept = size > 1 || !process_in.test(v.value) || other_in.test(v.value);
        checkpoint_bound += kept ? size : 0;
        row_bound += kept ? 1 : 0;
    }
    // Given up before the walk when the bound exceeds the budget: no more rows than
    // components, so whenever dense timestamps fit, these are built.
    if (row_bound * p > entry_budget) return std::nullopt;
    ts.rows_.reserve(row_bound * p);

    ts.checkpoints_ = RankedBits(n);
    std::vector<std::pair<NodeId, std::uint32_t>> checkpoint_rows; // node, row: in walk order
    checkpoint_rows.reserve(checkpoint_bound);
    // Per process, its last checkpoint so far. The process-order edges make a node's
    // predecessor final before it; where one is missing the node is a checkpoint, and the
    // last one is the largest node so far (a later walked, earlier node is not).
    IdVector<ProcessId, std::uint32_t> last_row(g.process_count(), kNone);
    IdVector<ProcessId, NodeId> last_node(g.process_count(), NodeId::none());
    // Rows pushed along the edges other than process order into components not walked yet.
    PendingRows pending(p);
    std::vector<std::int32_t> row(p);
    const auto raise = [p](std::int32_t* into, const std::int32_t* from) {
        raise_entries(into, from, p);
    };
    const auto store_row = [&]() -> std::optional<std::uint32_t> {
        if (ts.rows_.size() + p > entry_budget) return std::nullopt;
        const auto r = static_cast<std::uint32_t>(ts.rows_.size() / p);
        ts.rows_.insert(ts.rows_.end(), row.begin(), row.end());
        return r;
    };
    const auto add_checkpoint = [&](NodeId v, std::uint32_t r) {
        ts.checkpoints_.set(v.value);
        checkpoint_rows.emplace_back(v, r);
        const ProcessId q = g.node_process(v);
        if (q.valid() && (!last_node[q].valid() || last_node[q] < v)) {
            last_row[q] = r;
            last_node[q] = v;
        }
    };
    const auto serial = [&](NodeId v) { return static_cast<std::int32_t>(g.node_slot_serial(v)); };

    // Topological order of the condensation = decreasing component id.
    for (std::uint32_t c = components.count; c-- > 0;) {
        const std::uint32_t first = members.begin(c), last = members.begin(c + 1);
        std::fill(row.begin(), row.end(), -1);
        pending.take(c, row.data());
        bool pulled = false; // the single member's timestamp extends its predecessor's
        for (std::uint32_t i = first; i < last; ++i) {
            const NodeId v = members.node(i);
            const NodeId pred = process_predecessor(g, v);
            if (pred.valid() && comp[pred] != c && process_in.test(v.value)) {
                // The predecessor's timestamp: its process's last checkpoint, own entry at
                // its serial unless it is that checkpoint.
                const ProcessId q = g.node_process(v);
                const std::int32_t* at = &ts.rows_[static_cast<std::size_t>(last_row[q]) * p];
                raise(row.data(), at);
                const std::uint32_t own = g.node_slot(v).value;
                if (last_node[q] != pred) row[own] = std::max(row[own], serial(pred));
                pulled = true;
            }
            const SlotId slot = g.node_slot(v);
            if (slot.valid()) row[slot.value] = std::max(row[slot.value], serial(v));
        }
        for (std::uint32_t i = first; i < last; ++i) {
            const NodeId v = members.node(i);
            graph.for_each_successor(v, [&](NodeId w) {
                if (comp[w] == c || is_process_edge(g, v, w)) return;
                pending.raise(comp[w], row.data());
            });
        }
        if (last - first > 1) { // a cyclic component: one row for all its members
            const auto r = store_row();
            if (!r) return std::nullopt;
            for (std::uint32_t i = first; i < last; ++i)
                add_checkpoint(members.node(i), *r);
            continue;
        }
        const NodeId v = members.node(first);
        bool implied = pulled;
        if (implied) { // equal to the predecessor's row with its own entry at its serial?
            const ProcessId q = g.node_process(v);
            const std::int32_t* at = &ts.rows_[static_cast<std::size_t>(last_row[q]) * p];
            const std::uint32_t own = g.node_slot(v).value;
            for (std::uint32_t k = 0; k < p && implied; ++k)
                implied = row[k] == (k == own ? serial(v) : at[k]);
        }
        if (!implied) {
            const auto r = store_row();
            if (!r) return std::nullopt;
            add_checkpoint(v, *r);
        }
    }
    ts.checkpoints_.finish();
    ts.row_of_.resize(checkpoint_rows.size());
    for (const auto& [v, r] : checkpoint_rows)
        ts.row_of_[ts.checkpoints_.rank(v.value)] = r;
    if (ts.rows_.size() < ts.rows_.capacity() / 4 * 3) ts.rows_.shrink_to_fit();
    return ts;
}

} // namespace firstrace
