// Vector timestamps as step functions along each process (DESIGN-NOTES "Reachability on lock
// hand-overs"): the index used when the sparse timestamps' rows (checkpoints x slots) exceed
// their budget but the processes x slots are few, as on lock-handoff-heavy programs (GLib's
// mutex test: 146 threads, 101 slots, 3.0·10^6 checkpoints, 3.0·10^8 row entries, yet only
// 4.9·10^7 of them differ from the same process's previous checkpoint).
//
// ts(n, q) (reachability.hpp) never decreases along a process, and between two synchronization
// edges into a process only its own entry moves. So for each process P and slot q one list of
// (node, value) holds the points where ts(., q) along P changes, and for a node n of P
//
//   ts(n, q) = max(own(n, q), the value of the last list entry of (P, q) at a node <= n, or -1)
//
// where own(n, q) is n's serial when q is P's slot (-1 otherwise): P's own progress is stored
// only where something else raises it (a member of a cyclic component). A virtual barrier node
// is a list owner of its own with one entry per slot it has seen. A query is one process
// lookup and one binary search in one list; the lists hold the changed entries only (8 bytes
// each), not the whole rows. The same walk as the sparse timestamps' builds them, and an
// implied node (a process successor no other edge reaches) costs nothing.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "firstrace/page_array.hpp"
#include "reachability.hpp"

namespace firstrace {

class SlotStepTimestamps {
  public:
    // Nullopt when the list heads (list owners x slots) exceed `head_budget` entries, the lists
    // `change_budget` entries, or the graph lacks process order (a node walked before an
    // earlier node of its process: not a graph of the analysis).
    static std::optional<SlotStepTimestamps> build(const TemporalGraph& g, const NodeGraph& graph,
                                                   const Components& components,
                                                   std::uint64_t head_budget,
                                                   std::uint64_t change_budget);

    // `from` is a node of a process (a virtual node has no slot). Reflexive.
    bool reaches(NodeId from, NodeId to) const {
        const TemporalGraph::SlotPosition at = g_->process_node_position(from);
        return entry(to, at.slot.value) >= static_cast<std::int32_t>(at.serial);
    }
    // ts(n, q) for a slot q.
    std::int32_t entry(NodeId n, std::uint32_t q) const {
        std::uint32_t owner;
        std::int32_t own = -1;
        if (n.value < g_->process_node_count()) {
            const TemporalGraph::NodePosition at = g_->process_node_place(n);
            owner = at.process.value;
            if (at.slot.value == q) own = static_cast<std::int32_t>(at.serial);
        } else {
            owner = process_count_ + (n.value - g_->process_node_count());
        }
        const std::size_t key = static_cast<std::size_t>(owner) * p_ + q;
        const std::uint32_t* first = node_.data() + head_[key];
        const std::uint32_t* last = node_.data() + head_[key + 1];
        // The last entry at or before n (lists are short on most keys: a linear step first).
        const std::uint32_t* it = first;
        if (last - first <= 8) {
            while (it != last && *it <= n.value)
                ++it;
        } else {
            it = std::upper_bound(first, last, n.value);
        }
        if (it == first) return own;
        const std::int32_t v = value_[static_cast<std::size_t>(it - node_.data()) - 1];
        return v > own ? v : own;
    }
    std::uint64_t change_count() const { return node_.size(); }

  private:
    SlotStepTimestamps(const TemporalGraph& g, std::uint32_t p) : g_(&g), p_(p) {}

    const TemporalGraph* g_;
    std::uint32_t p_;
    std::uint32_t process_count_ = 0;
    // (owner x slots) + 1: the list of owner o and slot q is [head_[o * p + q], head_[.. + 1]).
    // Owners are the processes, then the virtual nodes.
    std::vector<std::uint32_t> head_;
    PageArray<std::uint32_t> node_; // per entry, ascending within a list
    PageArray<std::int32_t> value_;
};

} // namespace firstrace
