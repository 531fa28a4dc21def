// Reachability by vector timestamps on graphs that may be cyclic (Alg 6.1, 6.2, 7.5, 7.6):
// strongly connected components (strong_components.hpp) are processed as meta-nodes in
// topological order of the condensation.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "ranked_bits.hpp"
#include "temporal_graph.hpp"

namespace firstrace {

// A directed graph over the nodes of a TemporalGraph, in compressed sparse row form.
struct NodeGraph {
    std::uint32_t node_count = 0;
    std::vector<std::uint32_t> offsets; // node_count + 1: v's successors are at
                                        // [offsets[v.value], offsets[v.value + 1])
    std::vector<NodeId> targets;

    static NodeGraph from_edges(std::uint32_t node_count, std::vector<Edge> edges);
    // G itself, the graph from_edges(g.node_count(), g.edges()) builds (the same successors in
    // the same order), without the edge list: 8 bytes an edge less at the front half's peak.
    static NodeGraph of(const TemporalGraph& g);
    IdRange<NodeId> nodes() const { return ids<NodeId>(node_count); }
    template <class F> void for_each_successor(NodeId v, F&& f) const {
        for (std::uint32_t i = offsets[v.value]; i < offsets[v.value + 1]; ++i)
            f(targets[i]);
    }
};

// v's predecessor in its process (the node just before it, of the same process), or none; an
// edge from -> to is a process-order edge when from is to's predecessor. The index builders
// (sparse rows, slot steps) treat those edges apart from the synchronization edges.
inline NodeId process_predecessor(const TemporalGraph& g, NodeId v) {
    return v.value > 0 && g.node_process(v).valid() &&
                   g.node_process(NodeId(v.value - 1)) == g.node_process(v)
               ? NodeId(v.value - 1)
               : NodeId::none();
}
inline bool is_process_edge(const TemporalGraph& g, NodeId from, NodeId to) {
    return to.value == from.value + 1 && process_predecessor(g, to) == from;
}

// into[q] = max(into[q], from[q]) for the p entries of a timestamp row.
inline void raise_entries(std::int32_t* into, const std::int32_t* from, std::uint32_t p) {
    for (std::uint32_t q = 0; q < p; ++q)
        into[q] = std::max(into[q], from[q]);
}

// Rows of timestamp entries pushed along the edges other than process order into components
// the topological walk (Alg 6.1) has not reached yet: one pooled row of p entries per pending
// component, recycled when the component takes it. Shared by the index builders (sparse rows,
// slot steps).
class PendingRows {
  public:
    explicit PendingRows(std::uint32_t p) : p_(p) {}
    bool has(std::uint32_t c) const { return row_of_.count(c) != 0; }
    // c's pending row (all -1 when new) raised entrywise to at least `from`.
    void raise(std::uint32_t c, const std::int32_t* from);
    // `into` raised by c's pending row, if it has one, which is then recycled.
    void take(std::uint32_t c, std::int32_t* into);

  private:
    std::uint32_t p_;
    std::unordered_map<std::uint32_t, std::uint32_t> row_of_; // component -> row in pool_
    std::vector<std::int32_t> pool_;
    std::vector<std::uint32_t> free_rows_;
};

// Strongly connected components; ids are in reverse topological order of the condensation
// (component 0 has no edge to another component).
struct Components {
    IdVector<NodeId, std::uint32_t> of; // node -> component
    std::uint32_t count = 0;
};
Components strong_components(const NodeGraph& graph);

// The nodes of each component, contiguous (counting sort by component): component c's are
// node(i) for i in [begin(c), begin(c + 1)). When every component is one node (G of a
// well-formed trace) the offsets are the identity and not stored (4 bytes a node less).
class ComponentMembers {
  public:
    explicit ComponentMembers(const Components& c);
    std::uint32_t begin(std::uint32_t c) const { return begin_.empty() ? c : begin_[c]; }
    NodeId node(std::uint32_t i) const { return nodes_[i]; }

  private:
    std::vector<std::uint32_t> begin_; // count + 1; empty when components are single nodes
    std::vector<NodeId> nodes_;
};

// ts(n, q) = the largest serial of a node of timestamp slot q from which n is reachable (n
// itself included), or -1. Path m -> n exists iff ts(n, slot of m) >= serial of m in its slot.
//
// Stored sparsely (DESIGN-NOTES "Sparse vector timestamps"): along a process, ts(n) is the
// timestamp of its process predecessor with n's own slot entry raised to n's serial, except
// at nodes that an edge from another process reaches with something new (a lock acquired
// after another thread's release, a join), a process's first node, virtual nodes and members
// of cyclic components. Only those nodes, the checkpoints, keep a row of slot entries; any
// other node reads the row of the last checkpoint of its process with its own entry replaced
// by its serial. On a sync-heavy trace that is one row per cross-thread acquire instead of
// one per node of every strong component.
class VectorTimestamps {
  public:
    // Nullopt when the rows would hold more than `entry_budget` entries.
    static std::optional<VectorTimestamps> build(const TemporalGraph& g, const NodeGraph& graph,
                                                 const Components& components,
                                                 std::uint64_t entry_budget);
    // `from` is a node of a process (a virtual node has no slot).
    bool reaches(NodeId from, NodeId to) const {
        const TemporalGraph::SlotPosition at = g_->process_node_position(from);
        return entry(to, at.slot.value) >= static_cast<std::int32_t>(at.serial);
    }
    // ts(n, q) for a slot q.
    std::int32_t entry(NodeId n, std::uint32_t q) const {
        if (!checkpoints_.test(n.value)) { // a process node
            const TemporalGraph::SlotPosition at = g_->process_node_position(n);
            if (at.slot.value == q) return static_cast<std::int32_t>(at.serial);
        }
        const std::uint32_t k = checkpoints_.rank(n.value + 1) - 1; // last checkpoint <= n
        return rows_[static_cast<std::size_t>(row_of_[k]) * p_ + q];
    }
    // A node as the source of many queries (validation: a race's event a against each b): its
    // slot and serial found once.
    struct Source {
        std::uint32_t slot;
        std::int32_t serial;
    };
    Source source(NodeId from) const {
        const TemporalGraph::SlotPosition at = g_->process_node_position(from);
        return {at.slot.value, static_cast<std::int32_t>(at.serial)};
    }
    bool reaches(Source from, NodeId to) const { return entry(to, from.slot) >= from.serial; }
    // ts(n) as a whole, for many queries against one node (the transitive search,
    // dependences.cpp): its last checkpoint's row with n's own slot entry, unless n is one.
    class Row {
      public:
        std::int32_t operator[](std::uint32_t q) const {
            return q == own_slot_ ? own_serial_ : base_[q];
        }

      private:
        friend class VectorTimestamps;
        Row(const std::int32_t* base, std::uint32_t own_slot, std::int32_t own_serial)
            : base_(base), own_slot_(own_slot), own_serial_(own_serial) {}
        const std::int32_t* base_;
        std::uint32_t own_slot_; // no slot (UINT32_MAX) at a checkpoint: its row is its own
        std::int32_t own_serial_;
    };
    static bool reaches(Source from, const Row& to) { return to[from.slot] >= from.serial; }
    Row row(NodeId n) const {
        if (checkpoints_.test(n.value)) return row(n, {}); // its own row: no position needed
        return row(n, g_->process_node_position(n));
    }
    // row(n) when the caller knows n's slot position (`at`, read only if n is no checkpoint):
    // the nodes of one process's run of targets in the transitive search.
    Row row(NodeId n, TemporalGraph::SlotPosition at) const {
        const std::uint32_t k = checkpoints_.rank(n.value + 1) - 1;
        const std::int32_t* base = rows_.data() + static_cast<std::size_t>(row_of_[k]) * p_;
        if (checkpoints_.test(n.value)) return {base, UINT32_MAX, 0};
        return {base, at.slot.value, static_cast<std::int32_t>(at.serial)};
    }
    std::uint32_t checkpoint_count() const { return checkpoints_.count(); }
    bool is_checkpoint(NodeId n) const { return checkpoints_.test(n.value); }
    std::uint64_t row_entries() const { return rows_.size(); }

  private:
    VectorTimestamps(const TemporalGraph& g, std::uint32_t p) : g_(&g), p_(p) {}

    const TemporalGraph* g_;
    std::uint32_t p_;
    RankedBits checkpoints_;            // over the nodes
    std::vector<std::uint32_t> row_of_; // per checkpoint, in node order: its row
    std::vector<std::int32_t> rows_;    // p_ entries each (a cyclic component's members share one)
};

// For every component c of `graph` and slot q < p: the smallest position of a node in slot q
// reachable from (any node of) c by a non-empty path, or kNone. `slot(v)` gives a node's slot
// (SlotId::none(): none) and `position(v)` its position there.
template <class Slot, class Position>
std::vector<std::uint32_t>
earliest_reach_by_component(const NodeGraph& graph, const Components& components, std::uint32_t p,
                            Slot&& slot, Position&& position);

// Reverse timestamps for Ê* (DESIGN step 5): earliest(n, q) = the smallest slot position of an
// event of slot q whose start node is reachable from n by a non-empty path, or kNone. Dense
// (components x slots) while that is at most `dense_budget` entries; above it (GLib's rec-mutex:
// 1.6·10^7 components x 101 slots, 6.5 GB) a reachability index of the graph (GraphReachability,
// whichever fits) and a binary search along slot q's chain per query: the chain's start nodes
// are ordered in G, so those n reaches are a suffix (DESIGN-NOTES "Reachability on lock
// hand-overs"). The ordering stage asks only at the start nodes of race events.
inline constexpr std::uint64_t kEarliestReachDenseBudget = std::uint64_t(1) << 28;
class GraphReachability;
class EarliestReach {
  public:
    EarliestReach(const TemporalGraph& g, const NodeGraph& graph, const Components& components,
                  std::uint64_t dense_budget = kEarliestReachDenseBudget);
    ~EarliestReach();
    EarliestReach(EarliestReach&&) noexcept;
    EarliestReach& operator=(EarliestReach&&) noexcept;
    std::uint32_t earliest(NodeId n, SlotId q) const {
        if (index_ == nullptr) return er_[static_cast<std::size_t>(comp_[n]) * p_ + q.value];
        return searched(n, q);
    }
    bool dense() const { return index_ == nullptr; }

  private:
    std::uint32_t searched(NodeId n, SlotId q) const;

    const TemporalGraph* g_;
    std::uint32_t p_;
    IdVector<NodeId, std::uint32_t> comp_;
    std::vector<std::uint32_t> er_;            // per component, non-empty paths (dense)
    std::unique_ptr<GraphReachability> index_; // else
    std::vector<bool> cyclic_;                 // per component, with the index: on a cycle
};

} // namespace firstrace

#include "reachability_impl.hpp"
