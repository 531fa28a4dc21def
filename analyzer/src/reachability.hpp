// Reachability by vector timestamps on graphs that may be cyclic (Alg 6.1, 6.2, 7.5, 7.6):
// strongly connected components (strong_components.hpp) are processed as meta-nodes in
// topological order of the condensation.
#pragma once

#include <cstdint>
#include <vector>

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

// Strongly connected components; ids are in reverse topological order of the condensation
// (component 0 has no edge to another component).
struct Components {
    IdVector<NodeId, std::uint32_t> of; // node -> component
    std::uint32_t count = 0;
};
Components strong_components(const NodeGraph& graph);

// The nodes of each component, contiguous (counting sort by component).
struct ComponentMembers {
    std::vector<std::uint32_t> begin; // count + 1
    std::vector<NodeId> nodes;
    explicit ComponentMembers(const Components& c);
};

// ts[n * p + q] = the largest serial of a node of timestamp slot q from which n is reachable
// (n itself included), or -1. Path m -> n exists iff ts[n][slot m] >= serial of m in its slot.
class VectorTimestamps {
  public:
    VectorTimestamps(const TemporalGraph& g, const NodeGraph& graph, const Components& components);
    bool reaches(NodeId from, NodeId to) const {
        const std::uint32_t q = g_->node_slot(from).value;
        return ts_[static_cast<std::size_t>(comp_[to]) * p_ + q] >=
               static_cast<std::int32_t>(g_->node_slot_serial(from));
    }
    // reaches(from, to) is row(to)[slot of from] >= serial of from: for many queries against
    // one node, its row once (the transitive search, dependences.cpp).
    const std::int32_t* row(NodeId to) const {
        return ts_.data() + static_cast<std::size_t>(comp_[to]) * p_;
    }

  private:
    const TemporalGraph* g_;
    std::uint32_t p_;
    IdVector<NodeId, std::uint32_t> comp_;
    std::vector<std::int32_t> ts_; // per component
};

// For every component c of `graph` and slot q < p: the smallest position of a node in slot q
// reachable from (any node of) c by a non-empty path, or kNone. `slot(v)` gives a node's slot
// (SlotId::none(): none) and `position(v)` its position there.
template <class Slot, class Position>
std::vector<std::uint32_t>
earliest_reach_by_component(const NodeGraph& graph, const Components& components, std::uint32_t p,
                            Slot&& slot, Position&& position);

// Reverse timestamps for Ê* (DESIGN step 5): earliest(n, q) = the smallest slot position of an
// event of slot q whose start node is reachable from n by a non-empty path, or kNone.
class EarliestReach {
  public:
    EarliestReach(const TemporalGraph& g, const NodeGraph& graph, const Components& components);
    std::uint32_t earliest(NodeId n, SlotId q) const {
        return er_[static_cast<std::size_t>(comp_[n]) * p_ + q.value];
    }

  private:
    std::uint32_t p_;
    IdVector<NodeId, std::uint32_t> comp_;
    std::vector<std::uint32_t> er_; // per component, non-empty paths
};

} // namespace firstrace

#include "reachability_impl.hpp"
