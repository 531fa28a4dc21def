// G, the temporal ordering graph (Def 6.1; DESIGN step 1), at node level: a computation event
// has a start and a finish node, a synchronization event one node, and a barrier episode one
// virtual node that belongs to no process. Process order is implicit (consecutive nodes of a
// process); the synchronization edges are explicit.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "analysis_ids.hpp"
#include "firstrace/analysis_result.hpp"
#include "firstrace/model.hpp"
#include "ranked_bits.hpp"

namespace firstrace {

using Edge = std::pair<NodeId, NodeId>;

class TemporalGraph {
  public:
    explicit TemporalGraph(const Trace& trace);

    std::uint32_t process_count() const {
        return static_cast<std::uint32_t>(event_offset_.size() - 1);
    }
    std::uint32_t event_count() const { return event_offset_.back().value; }
    std::uint32_t node_count() const { return process_node_count_ + virtual_node_count_; }
    IdRange<ProcessId> processes() const { return ids<ProcessId>(process_count()); }
    IdRange<EventId> events() const { return ids<EventId>(event_count()); }
    IdRange<NodeId> nodes() const { return ids<NodeId>(node_count()); }

    // From and to the model's coordinates (process index, index within the process).
    EventId event_id(ProcessId process, std::uint32_t index) const {
        return EventId(event_offset_[process].value + index);
    }
    EventId event_id(const EventRef& r) const { return event_id(ProcessId(r.process), r.index); }
    EventRef event_ref(EventId e) const {
        const ProcessId p = event_process(e);
        return {p.value, e.value - event_offset_[p].value};
    }
    // The process whose events start last at or before e (a rank bit set, not an array of
    // processes per event).
    ProcessId event_process(EventId e) const {
        return nonempty_processes_[process_first_.rank(e.value + 1) - 1];
    }
    std::uint32_t event_index(EventId e) const {
        return e.value - event_offset_[event_process(e)].value;
    }
    const Event& event(EventId e) const {
        const ProcessId p = event_process(e);
        return trace_->processes[p.value].events[e.value - event_offset_[p].value];
    }
    // A computation event has two nodes, any other event one, and the nodes of the processes'
    // events are numbered consecutively in event order (the virtual barrier nodes after them):
    // an event's start node is its id plus the computation events before it, its finish node
    // the node before the next event's start, and a node's event its id minus the finish nodes
    // up to it. Two rank bit sets instead of arrays of nodes per event and of events and
    // processes per node (DESIGN-NOTES "Sync-heavy traces", "Sparse vector timestamps").
    bool is_computation(EventId e) const { return computation_.test(e.value); }
    // First event id of a process and one past its last.
    EventId process_begin(ProcessId p) const { return event_offset_[p]; }
    EventId process_end(ProcessId p) const { return event_offset_[ProcessId(p.value + 1)]; }
    IdRange<EventId> process_events(ProcessId p) const {
        return id_range(process_begin(p), process_end(p));
    }

    NodeId start_node(EventId e) const { return NodeId(e.value + computation_.rank(e.value)); }
    NodeId finish_node(EventId e) const { return NodeId(e.value + computation_.rank(e.value + 1)); }
    ProcessId node_process(NodeId n) const { // none(): virtual
        return n.value < process_node_count_ ? event_process(node_event(n)) : ProcessId::none();
    }
    // Position of a node within its process (0 for virtual nodes).
    std::uint32_t node_serial(NodeId n) const {
        const ProcessId q = node_process(n);
        return q.valid() ? n.value - start_node(event_offset_[q]).value : 0;
    }
    // The event a node belongs to (none() for virtual nodes), and whether it is a start node.
    EventId node_event(NodeId n) const {
        return n.value < process_node_count_ ? EventId(n.value - finish_.rank(n.value + 1))
                                             : EventId::none();
    }
    bool is_start_node(NodeId n) const {
        return n.value < process_node_count_ && !finish_.test(n.value);
    }

    // Timestamp slots (DESIGN step 2): a process takes over the slot of a process whose end is
    // ordered before its start by any path of G (join, barrier, lock, semaphore), so the slots
    // form chains ordered in G and the timestamp width is the number of processes live at once,
    // not of all processes ever created. Processes without events have no slot (none()).
    std::uint32_t slot_count() const { return static_cast<std::uint32_t>(slot_events_.size()); }
    IdRange<SlotId> slots() const { return ids<SlotId>(slot_count()); }
    SlotId node_slot(NodeId n) const {
        const ProcessId q = node_process(n);
        return q.valid() ? process_slot_[q] : SlotId::none();
    }
    std::uint32_t node_slot_serial(NodeId n) const {
        return process_serial_offset_[node_process(n)] + n.value;
    }
    // Both at once for a node of a process (not virtual): its process found once, two ranks
    // (the reachability queries of every later stage take these for each node they compare).
    struct SlotPosition {
        SlotId slot;
        std::uint32_t serial;
    };
    SlotPosition process_node_position(NodeId n) const {
        const ProcessId q = event_process(EventId(n.value - finish_.rank(n.value + 1)));
        return {process_slot_[q], process_serial_offset_[q] + n.value};
    }
    // The same with the process itself (the slot-step index keys its lists by process).
    struct NodePosition {
        ProcessId process;
        SlotId slot;
        std::uint32_t serial;
    };
    NodePosition process_node_place(NodeId n) const {
        const ProcessId q = event_process(EventId(n.value - finish_.rank(n.value + 1)));
        return {q, process_slot_[q], process_serial_offset_[q] + n.value};
    }
    // Nodes of processes are [0, process_node_count()); the virtual barrier nodes follow.
    std::uint32_t process_node_count() const { return process_node_count_; }
    SlotId event_slot(EventId e) const { return process_slot_[event_process(e)]; }
    SlotId process_slot(ProcessId p) const { return process_slot_[p]; }
    // node_slot_serial(n) = process_serial_offset(p) + n for the nodes n of process p (mod 2^32).
    std::uint32_t process_serial_offset(ProcessId p) const { return process_serial_offset_[p]; }
    // Position of an event in its slot's chain of events.
    std::uint32_t event_slot_position(EventId e) const {
        const ProcessId p = event_process(e);
        return process_event_base_[p] + e.value - event_offset_[p].value;
    }
    const std::vector<EventId>& slot_events(SlotId slot) const { return slot_events_[slot]; }

    // Process-order edges plus synchronization edges: every edge of G.
    std::vector<Edge> edges() const;
    const std::vector<Edge>& sync_edges() const { return sync_edges_; }
    // Synchronization edges as event pairs (virtual barrier nodes expanded), for the outputs.
    std::vector<std::pair<EventId, EventId>> sync_event_edges() const;

    const Trace& trace() const { return *trace_; }

  private:
    void add_sync_edges();
    void assign_slots();
    NodeId add_virtual_node();

    const Trace* trace_;
    IdVector<ProcessId, EventId> event_offset_; // per process, plus a sentinel
    RankedBits process_first_;                  // per event: is its process's first
    std::vector<ProcessId> nonempty_processes_; // the processes with events, in order
    RankedBits computation_; // per event, plus a sentinel: is a computation event
    RankedBits finish_;      // per node of a process: is a computation event's finish node
    std::uint32_t process_node_count_ = 0;
    std::uint32_t virtual_node_count_ = 0; // barrier episodes, numbered after the process nodes
    std::vector<Edge> sync_edges_;
    IdVector<ProcessId, SlotId> process_slot_;
    // Slot serial of a node of the process minus the node's id, modulo 2^32: the serial is one
    // addition (no rank for the process's first node).
    IdVector<ProcessId, std::uint32_t> process_serial_offset_;
    IdVector<ProcessId, std::uint32_t> process_event_base_; // slot position of its first event
    IdVector<SlotId, std::vector<EventId>> slot_events_;
};

} // namespace firstrace
