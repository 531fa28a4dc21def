#include "reachability_steps.hpp"

#include <algorithm>
#include <unordered_map>

namespace firstrace {

std::optional<SlotStepTimestamps> SlotStepTimestamps::build(const TemporalGraph& g,
                                                            const NodeGraph& graph,
                                                            const Components& components,
                                                            std::uint64_t head_budget,
                                                            std::uint64_t change_budget) {
    const std::uint32_t p = std::max<std::uint32_t>(g.slot_count(), 1);
    const std::uint32_t n = graph.node_count;
    const std::uint32_t processes = g.process_count();
    const std::uint64_t owners = std::uint64_t{processes} + (n - g.process_node_count());
    if (owners * p > head_budget || owners * p >= kNone) return std::nullopt;
    change_budget = std::min<std::uint64_t>(change_budget, kNone - 1);
    SlotStepTimestamps ts(g, p);
    ts.process_count_ = processes;
    const ComponentMembers members(components);
    const auto& comp = components.of;
    RankedBits process_in(n);
    for (const NodeId v : graph.nodes())
        graph.for_each_successor(v, [&](NodeId w) {
            if (is_process_edge(g, v, w)) process_in.set(w.value);
        });

    // The changes in walk order, (owner x p + slot, node, value); sorted into lists at the end.
    struct Change {
        std::uint32_t key, node;
        std::int32_t value;
    };
    PageArray<Change> changes;
    // Per process: the last stored value of each slot (`current`) and the last node walked.
    std::vector<std::int32_t> current(static_cast<std::size_t>(processes) * p, -1);
    std::vector<std::uint32_t> last_walked(processes, kNone);
    // Rows pushed along the edges other than process order into components not walked yet.
    PendingRows pending(p);
    std::vector<std::int32_t> row(p), pulled(p);
    const auto serial = [&](NodeId v) { return static_cast<std::int32_t>(g.node_slot_serial(v)); };
    const auto raise = [p](std::int32_t* into, const std::int32_t* from) {
        raise_entries(into, from, p);
    };
    // ts(v) of a process node whose process's lists are final up to v: its process's current
    // values with its own entry at least its serial.
    const auto effective = [&](NodeId v, std::int32_t* out) {
        const ProcessId q = g.node_process(v);
        const std::int32_t* cur = &current[static_cast<std::size_t>(q.value) * p];
        std::copy(cur, cur + p, out);
        const std::uint32_t own = g.node_slot(v).value;
        out[own] = std::max(out[own], serial(v));
    };
    // Stores the entries of `row` (ts(v)) that its owner's lists do not already imply.
    const auto store = [&](NodeId v) -> bool {
        const ProcessId q = g.node_process(v);
        if (!q.valid()) { // a virtual node: a list owner of its own
            const std::uint64_t base =
                (std::uint64_t{processes} + (v.value - g.process_node_count())) * p;
            for (std::uint32_t s = 0; s < p; ++s)
                if (row[s] >= 0)
                    changes.push_back({static_cast<std::uint32_t>(base + s), v.value, row[s]});
            return changes.size() <= change_budget;
        }
        std::int32_t* cur = &current[static_cast<std::size_t>(q.value) * p];
        const std::uint32_t own = g.node_slot(v).value;
        const std::uint64_t base = std::uint64_t{q.value} * p;
        for (std::uint32_t s = 0; s < p; ++s) {
            const std::int32_t implied = s == own ? std::max(cur[s], serial(v)) : cur[s];
            if (row[s] == implied) continue;
            changes.push_back({static_cast<std::uint32_t>(base + s), v.value, row[s]});
            cur[s] = row[s];
        }
        return changes.size() <= change_budget;
    };
    const auto push = [&](NodeId v, const std::int32_t* from) {
        graph.for_each_successor(v, [&](NodeId w) {
            if (comp[w] == comp[v] || is_process_edge(g, v, w)) return;
            pending.raise(comp[w], from);
        });
    };
    const auto has_other_successor = [&](NodeId v) {
        for (std::uint32_t i = graph.offsets[v.value]; i < graph.offsets[v.value + 1]; ++i) {
            const NodeId w = graph.targets[i];
            if (comp[w] != comp[v] && !is_process_edge(g, v, w)) return true;
        }
        return false;
    };

    // Topological order of the condensation = decreasing component id.
    for (std::uint32_t c = components.count; c-- > 0;) {
        const std::uint32_t first = members.begin(c), last = members.begin(c + 1);
        for (std::uint32_t i = first; i < last; ++i) { // process order must be walked in order
            const NodeId v = members.node(i);
            const ProcessId q = g.node_process(v);
            if (!q.valid()) continue;
            if (last_walked[q.value] != kNone && last_walked[q.value] > v.value)
                return std::nullopt;
            last_walked[q.value] = v.value;
        }
        if (last - first == 1 && !pending.has(c)) {
            const NodeId v = members.node(first);
            const NodeId pred = process_predecessor(g, v);
            if (pred.valid() && process_in.test(v.value)) { // implied: nothing to store
                if (has_other_successor(v)) {
                    effective(v, row.data());
                    push(v, row.data());
                }
                continue;
            }
        }
        std::fill(row.begin(), row.end(), -1);
        pending.take(c, row.data());
        for (std::uint32_t i = first; i < last; ++i) {
            const NodeId v = members.node(i);
            const NodeId pred = process_predecessor(g, v);
            if (pred.valid() && comp[pred] != c && process_in.test(v.value)) {
                effective(pred, pulled.data());
                raise(row.data(), pulled.data());
            }
            const SlotId slot = g.node_slot(v);
            if (slot.valid()) row[slot.value] = std::max(row[slot.value], serial(v));
        }
        // One row for every member (a cyclic component's members reach each other).
        for (std::uint32_t i = first; i < last; ++i)
            if (!store(members.node(i))) return std::nullopt;
        for (std::uint32_t i = first; i < last; ++i)
            push(members.node(i), row.data());
    }

    // Counting sort into lists by key; within a key the walk's order is node order.
    ts.head_.assign(owners * p + 1, 0);
    for (const Change& ch : changes)
        ++ts.head_[ch.key + 1];
    for (std::size_t k = 0; k + 1 < ts.head_.size(); ++k)
        ts.head_[k + 1] += ts.head_[k];
    ts.node_.resize_for_overwrite(changes.size());
    ts.value_.resize_for_overwrite(changes.size());
    {
        std::vector<std::uint32_t> fill(ts.head_.begin(), ts.head_.end() - 1);
        for (const Change& ch : changes) {
            const std::uint32_t at = fill[ch.key]++;
            ts.node_[at] = ch.node;
            ts.value_[at] = ch.value;
        }
    }
    return ts;
}

} // namespace firstrace
