// G, the temporal ordering graph (Def 6.1; DESIGN step 1), at node level: a computation event
// has a start and a finish node, a synchronization event one node, and a barrier episode one
// virtual node that belongs to no process. Process order is implicit (consecutive nodes of a
// process); the synchronization edges are explicit.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "firstrace/analysis_result.hpp"
#include "firstrace/model.hpp"

namespace firstrace {

using EventId = std::uint32_t; // dense id over all events of all processes
using NodeId = std::uint32_t;
using Edge = std::pair<NodeId, NodeId>;

class TemporalGraph {
  public:
    explicit TemporalGraph(const Trace& trace);

    std::uint32_t process_count() const {
        return static_cast<std::uint32_t>(event_offset_.size() - 1);
    }
    std::uint32_t event_count() const { return event_offset_.back(); }
    std::uint32_t node_count() const { return static_cast<std::uint32_t>(node_process_.size()); }

    EventId event_id(std::uint32_t process, std::uint32_t index) const {
        return event_offset_[process] + index;
    }
    EventId event_id(const EventRef& r) const { return event_id(r.process, r.index); }
    EventRef event_ref(EventId e) const {
        return {event_process_[e], e - event_offset_[event_process_[e]]};
    }
    std::uint32_t event_process(EventId e) const { return event_process_[e]; }
    std::uint32_t event_index(EventId e) const { return e - event_offset_[event_process_[e]]; }
    const Event& event(EventId e) const;
    bool is_computation(EventId e) const { return start_node_[e] != finish_node_[e]; }
    // First event id of a process and one past its last.
    EventId process_begin(std::uint32_t p) const { return event_offset_[p]; }
    EventId process_end(std::uint32_t p) const { return event_offset_[p + 1]; }

    NodeId start_node(EventId e) const { return start_node_[e]; }
    NodeId finish_node(EventId e) const { return finish_node_[e]; }
    std::uint32_t node_process(NodeId n) const { return node_process_[n]; } // kNone: virtual
    std::uint32_t node_serial(NodeId n) const { return node_serial_[n]; }   // within its process
    // The event a node belongs to (kNone for virtual nodes), and whether it is a start node.
    EventId node_event(NodeId n) const { return node_event_[n]; }
    bool is_start_node(NodeId n) const {
        return node_event_[n] != kNone && start_node_[node_event_[n]] == n;
    }

    // Timestamp slots (DESIGN step 2): a process takes over the slot of a process whose end is
    // ordered before its start by any path of G (join, barrier, lock, semaphore), so the slots
    // form chains ordered in G and the timestamp width is the number of processes live at once,
    // not of all processes ever created. Processes without events have no slot (kNone).
    std::uint32_t slot_count() const { return static_cast<std::uint32_t>(slot_events_.size()); }
    std::uint32_t node_slot(NodeId n) const {
        return node_process_[n] == kNone ? kNone : process_slot_[node_process_[n]];
    }
    std::uint32_t node_slot_serial(NodeId n) const {
        return process_node_base_[node_process_[n]] + node_serial_[n];
    }
    std::uint32_t event_slot(EventId e) const { return process_slot_[event_process_[e]]; }
    // Position of an event in its slot's chain of events.
    std::uint32_t event_slot_position(EventId e) const {
        return process_event_base_[event_process_[e]] + event_index(e);
    }
    const std::vector<EventId>& slot_events(std::uint32_t slot) const { return slot_events_[slot]; }

    // Process-order edges plus synchronization edges: every edge of G.
    std::vector<Edge> edges() const;
    const std::vector<Edge>& sync_edges() const { return sync_edges_; }
    // Synchronization edges as event pairs (virtual barrier nodes expanded), for the outputs.
    std::vector<std::pair<EventId, EventId>> sync_event_edges() const;

    const Trace& trace() const { return *trace_; }

  private:
    void add_sync_edges();
    void assign_slots();

    const Trace* trace_;
    std::vector<EventId> event_offset_; // per process, plus a sentinel
    std::vector<std::uint32_t> event_process_;
    std::vector<NodeId> start_node_;
    std::vector<NodeId> finish_node_;
    std::vector<std::uint32_t> node_process_;
    std::vector<std::uint32_t> node_serial_;
    std::vector<EventId> node_event_;
    std::vector<Edge> sync_edges_;
    std::vector<std::uint32_t> process_slot_;
    std::vector<std::uint32_t> process_node_base_;  // slot serial of the process' first node
    std::vector<std::uint32_t> process_event_base_; // slot position of its first event
    std::vector<std::vector<EventId>> slot_events_;
};

} // namespace firstrace
