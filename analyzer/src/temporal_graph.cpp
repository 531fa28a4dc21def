#include "temporal_graph.hpp"

#include <algorithm>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <map>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

namespace firstrace {

TemporalGraph::TemporalGraph(const Trace& trace) : trace_(&trace) {
    std::uint32_t total = 0;
    event_offset_.reserve(trace.processes.size() + 1);
    for (const Process& process : trace.processes) {
        event_offset_.push_back(EventId(total));
        total += static_cast<std::uint32_t>(process.events.size());
    }
    event_offset_.push_back(EventId(total));
    process_first_ = RankedBits(total);
    for (const ProcessId i : processes()) {
        if (process_events(i).empty()) continue;
        process_first_.set(process_begin(i).value);
        nonempty_processes_.push_back(i);
    }
    process_first_.finish();
    // Two nodes per computation event, one per other event (DESIGN step 1).
    computation_ = RankedBits(total);
    std::uint64_t process_nodes = total;
    for (const ProcessId i : processes()) {
        for (const EventId e : process_events(i)) {
            if (event(e).kind == EventKind::Computation) {
                computation_.set(e.value);
                ++process_nodes;
            }
        }
    }
    if (process_nodes >= kNone)
        throw std::length_error("trace has more than 2^32 - 2 nodes in its temporal graph");
    computation_.finish();
    process_node_count_ = static_cast<std::uint32_t>(process_nodes);
    finish_ = RankedBits(process_node_count_);
    for (const EventId e : events())
        if (is_computation(e)) finish_.set(start_node(e).value + 1);
    finish_.finish();
    add_sync_edges();
    assign_slots();
#ifdef __GLIBC__
    // The slot walk's work arrays and clocks (half a gigabyte for 10^6 tasks) are freed by now
    // but stay in the heap, counted in the resident set, under the later stages' large arrays,
    // which are mapped afresh: give the free pages back (glibc; elsewhere nothing to do).
    malloc_trim(0);
#endif
}

NodeId TemporalGraph::add_virtual_node() {
    return NodeId(process_node_count_ + virtual_node_count_++);
}

void TemporalGraph::assign_slots() {
    const std::uint32_t p = process_count();
    const std::uint32_t nodes = node_count();
    process_slot_.assign(p, SlotId::none());
    process_serial_offset_.assign(p, 0);
    process_event_base_.assign(p, 0);
    IdVector<SlotId, ProcessId> slot_tail;           // last process of each slot
    IdVector<SlotId, std::uint32_t> slot_node_count; // nodes in each slot so far
    auto node_total = [&](ProcessId q) {
        return process_begin(q) == process_end(q)
                   ? 0u
                   : finish_node(EventId(process_end(q).value - 1)).value -
                         start_node(process_begin(q)).value + 1;
    };
    auto open_slot = [&](ProcessId process, SlotId slot) {
        if (!slot.valid()) {
            slot = slot_events_.next_id();
            slot_events_.emplace_back();
            slot_tail.push_back(ProcessId::none());
            slot_node_count.push_back(0);
        }
        process_slot_[process] = slot;
        process_serial_offset_[process] =
            slot_node_count[slot] - start_node(process_begin(process)).value;
        process_event_base_[process] = static_cast<std::uint32_t>(slot_events_[slot].size());
        slot_tail[slot] = process;
        // Grown by the process's events at once: a slot's chain is mostly one process (10^6
        // of them in a recursive task program), so it is sized exactly, not by doubling; a
        // chain of many processes (a lock handed from thread to thread) grows by doubling,
        // only when full (reserving twice the size every time copied the chain per process:
        // quadratic, 250 000 short threads took 30 s here).
        std::vector<EventId>& chain = slot_events_[slot];
        const std::uint32_t first = process_begin(process).value;
        const std::uint32_t count = process_end(process).value - first;
        if (chain.capacity() < chain.size() + count)
            chain.reserve(chain.size() + std::max<std::size_t>(count, chain.size()));
        for (std::uint32_t k = 0; k < count; ++k)
            chain.push_back(EventId(first + k));
        slot_node_count[slot] += node_total(process);
    };

    // A topological walk of G with vector clocks over the slots opened so far: when a process
    // starts, the clock of its first node says which slots' last processes have ended before it
    // by some path (join, barrier, lock release, semaphore, ...), and it takes over one of them.
    // Each slot is then a chain of processes totally ordered in G, and the width is the number
    // of processes live at once, however many were created over time. Clocks are kept only
    // where still needed: the current node of each running process and the sources of
    // synchronization edges not yet consumed; the walk is depth first so that a process runs
    // to its end before others start.
    //
    // Clocks are sparse, (slot, serial) ascending by slot: in a recursive task program no
    // slot can be reused (DESIGN-NOTES "Reachability index"), and a dense clock as wide as the
    // slots opened so far would be copied at every fork, quadratic in the tasks. A sparse one
    // holds what its node has seen: the ancestors, and the subtrees joined so far.
    struct SlotSerial {
        std::uint32_t slot;
        std::int32_t serial;
    };
    using Clock = std::vector<SlotSerial>;
    auto by_slot = [](const SlotSerial& x, std::uint32_t slot) { return x.slot < slot; };
    auto set_serial = [&](Clock& clock, std::uint32_t slot, std::int32_t serial) {
        const auto it = std::lower_bound(clock.begin(), clock.end(), slot, by_slot);
        if (it != clock.end() && it->slot == slot)
            it->serial = std::max(it->serial, serial);
        else
            clock.insert(it, {slot, serial});
    };
    Clock merged;
    auto merge = [&](Clock& into, const Clock& from) {
        if (from.size() * 8 < into.size()) { // a few entries into a wide clock (a join)
            for (const SlotSerial& e : from)
                set_serial(into, e.slot, e.serial);
            return;
        }
        merged.clear();
        std::size_t i = 0, j = 0;
        while (i < into.size() || j < from.size()) {
            if (j == from.size() || (i < into.size() && into[i].slot < from[j].slot))
                merged.push_back(into[i++]);
            else if (i == into.size() || from[j].slot < into[i].slot)
                merged.push_back(from[j++]);
            else
                merged.push_back({into[i].slot, std::max(into[i++].serial, from[j++].serial)});
        }
        into.swap(merged);
    };
    // Synchronization edges in and out of each node, compressed: node v's are at
    // [offsets[v.value], offsets[v.value + 1]).
    std::vector<std::uint32_t> in_offsets(nodes + 1, 0), out_offsets(nodes + 1, 0);
    for (const auto& [from, to] : sync_edges_) {
        ++in_offsets[to.value + 1];
        ++out_offsets[from.value + 1];
    }
    for (std::uint32_t v = 0; v < nodes; ++v) {
        in_offsets[v + 1] += in_offsets[v];
        out_offsets[v + 1] += out_offsets[v];
    }
    std::vector<NodeId> in_sources(sync_edges_.size()), out_targets(sync_edges_.size());
    // Filled with the offsets themselves as cursors (no copy of two node-sized arrays): each
    // offsets[v] moves to v's end, which is v + 1's start, so they are shifted back after.
    for (const auto& [from, to] : sync_edges_) {
        in_sources[in_offsets[to.value]++] = from;
        out_targets[out_offsets[from.value]++] = to;
    }
    for (std::uint32_t v = nodes; v > 0; --v) {
        in_offsets[v] = in_offsets[v - 1];
        out_offsets[v] = out_offsets[v - 1];
    }
    in_offsets[0] = out_offsets[0] = 0;
    // The nodes of a process are consecutive ids (process order).
    auto process_successor = [](NodeId v) { return NodeId(v.value + 1); };
    auto has_process_successor = [&](NodeId v) {
        return v.value + 1 < process_node_count_ &&
               node_process(process_successor(v)) == node_process(v);
    };
    auto has_process_predecessor = [&](NodeId v) {
        return v.value > 0 && v.value < process_node_count_ &&
               node_process(NodeId(v.value - 1)) == node_process(v);
    };
    IdVector<NodeId, std::uint32_t> waiting(nodes, 0); // unprocessed predecessors
    std::vector<NodeId> ready;
    for (const NodeId v : this->nodes()) {
        waiting[v] =
            in_offsets[v.value + 1] - in_offsets[v.value] + (has_process_predecessor(v) ? 1 : 0);
        if (waiting[v] == 0) ready.push_back(v);
    }
    std::reverse(ready.begin(), ready.end());                            // lowest processes first
    std::unordered_map<NodeId, std::pair<Clock, std::uint32_t>> pending; // clock, uses left
    IdVector<ProcessId, Clock> running(p);
    while (!ready.empty()) {
        const NodeId v = ready.back();
        ready.pop_back();
        const ProcessId q = node_process(v);
        Clock clock;
        if (has_process_predecessor(v)) clock = std::move(running[q]);
        for (std::uint32_t i = in_offsets[v.value]; i < in_offsets[v.value + 1]; ++i) {
            const auto it = pending.find(in_sources[i]);
            merge(clock, it->second.first);
            if (--it->second.second == 0) pending.erase(it);
        }
        if (q.valid()) {
            if (!has_process_predecessor(v)) { // q starts: reuse a slot whose tail has ended
                SlotId slot = SlotId::none();
                for (std::size_t k = 0; k < clock.size() && !slot.valid(); ++k) {
                    const ProcessId tail = slot_tail[SlotId(clock[k].slot)];
                    if (clock[k].serial >= 0 && static_cast<std::uint32_t>(clock[k].serial) + 1 >=
                                                    process_serial_offset_[tail] +
                                                        start_node(process_begin(tail)).value +
                                                        node_total(tail))
                        slot = SlotId(clock[k].slot);
                }
                open_slot(q, slot);
            }
            set_serial(clock, process_slot_[q].value,
                       static_cast<std::int32_t>(node_slot_serial(v)));
        }
        const std::uint32_t uses = out_offsets[v.value + 1] - out_offsets[v.value];
        if (uses > 0) pending.emplace(v, std::make_pair(clock, uses));
        if (has_process_successor(v)) running[q] = std::move(clock);
        // Successors: synchronization targets, then the process successor (walked first).
        for (std::uint32_t i = out_offsets[v.value]; i < out_offsets[v.value + 1]; ++i)
            if (--waiting[out_targets[i]] == 0) ready.push_back(out_targets[i]);
        if (has_process_successor(v) && --waiting[process_successor(v)] == 0)
            ready.push_back(process_successor(v));
    }
    // Processes in a cycle of G (a malformed trace) were not reached: slots of their own.
    for (const ProcessId q : processes())
        if (!process_slot_[q].valid() && !process_events(q).empty()) open_slot(q, SlotId::none());
}

std::vector<Edge> TemporalGraph::edges() const {
    std::vector<Edge> out;
    out.reserve(node_count() + sync_edges_.size());
    for (const NodeId v : nodes()) {
        const NodeId next(v.value + 1); // process order: a process' nodes are consecutive
        if (next.value < process_node_count_ && node_process(v) == node_process(next))
            out.emplace_back(v, next);
    }
    out.insert(out.end(), sync_edges_.begin(), sync_edges_.end());
    return out;
}

void TemporalGraph::add_sync_edges() {
    const Trace& trace = *trace_;
    struct ObjectOp {
        std::uint32_t object;
        std::uint64_t counter;
        EventKind kind;
        EventId event;
    };
    std::vector<ObjectOp> ops;
    for (const EventId e : events()) {
        const Event& ev = event(e);
        switch (ev.kind) {
        case EventKind::Fork: {
            const ProcessId child(ev.object); // a fork's object is the child's process index
            if (child.value < process_count() && !process_events(child).empty())
                sync_edges_.emplace_back(finish_node(e), start_node(process_begin(child)));
            break;
        }
        case EventKind::Join: {
            const ProcessId child(ev.object);
            if (child.value < process_count() && !process_events(child).empty())
                sync_edges_.emplace_back(finish_node(EventId(process_end(child).value - 1)),
                                         start_node(e));
            break;
        }
        case EventKind::Acquire:
        case EventKind::Release:
        case EventKind::SemPost:
        case EventKind::SemWait:
        case EventKind::BarrierArrive:
        case EventKind::BarrierDepart:
            ops.push_back({ev.object, ev.counter, ev.kind, e});
            break;
        default:
            break;
        }
    }
    std::stable_sort(ops.begin(), ops.end(), [](const ObjectOp& a, const ObjectOp& b) {
        return std::tie(a.object, a.counter) < std::tie(b.object, b.counter);
    });
    for (std::size_t i = 0; i < ops.size();) {
        std::size_t j = i;
        while (j < ops.size() && ops[j].object == ops[i].object)
            ++j;
        const std::uint32_t object = ops[i].object;
        // Locks and atomics: each acquire is ordered after the latest release before it.
        EventId last_release = EventId::none();
        // Semaphores: the k-th completed wait is enabled by the (k - initial value)-th post.
        std::vector<EventId> posts;
        std::vector<EventId> waits;
        // Barriers: every arrival of an episode precedes every departure of it.
        std::map<std::uint64_t, std::pair<std::vector<EventId>, std::vector<EventId>>> episodes;
        for (std::size_t k = i; k < j; ++k) {
            const ObjectOp& op = ops[k];
            switch (op.kind) {
            case EventKind::Release:
                last_release = op.event;
                break;
            case EventKind::Acquire:
                if (last_release.valid() && event_process(last_release) != event_process(op.event))
                    sync_edges_.emplace_back(finish_node(last_release), start_node(op.event));
                break;
            case EventKind::SemPost:
                posts.push_back(op.event);
                break;
            case EventKind::SemWait:
                waits.push_back(op.event);
                break;
            case EventKind::BarrierArrive:
                episodes[op.counter].first.push_back(op.event);
                break;
            case EventKind::BarrierDepart:
                episodes[op.counter].second.push_back(op.event);
                break;
            default:
                break;
            }
        }
        const std::int64_t initial =
            object < trace.objects.size() ? trace.objects[object].initial_value : 0;
        for (std::size_t k = 0; k < waits.size(); ++k) {
            const std::int64_t post = static_cast<std::int64_t>(k) - initial;
            if (post >= 0 && static_cast<std::size_t>(post) < posts.size())
                sync_edges_.emplace_back(finish_node(posts[static_cast<std::size_t>(post)]),
                                         start_node(waits[k]));
        }
        for (const auto& [episode, ends] : episodes) {
            if (ends.first.empty() || ends.second.empty()) continue;
            const NodeId v = add_virtual_node();
            for (EventId a : ends.first)
                sync_edges_.emplace_back(finish_node(a), v);
            for (EventId d : ends.second)
                sync_edges_.emplace_back(v, start_node(d));
        }
        i = j;
    }
}

std::vector<std::pair<EventId, EventId>> TemporalGraph::sync_event_edges() const {
    std::vector<std::pair<EventId, EventId>> out;
    std::unordered_map<NodeId, std::vector<EventId>> into_virtual;
    for (const auto& [from, to] : sync_edges_)
        if (!node_process(to).valid()) into_virtual[to].push_back(node_event(from));
    for (const auto& [from, to] : sync_edges_) {
        if (!node_process(to).valid()) continue;
        if (node_process(from).valid())
            out.emplace_back(node_event(from), node_event(to));
        else
            for (EventId a : into_virtual[from])
                out.emplace_back(a, node_event(to));
    }
    return out;
}

} // namespace firstrace
