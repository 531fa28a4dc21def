#include "temporal_graph.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace firstrace {

TemporalGraph::TemporalGraph(const Trace& trace) : trace_(&trace) {
    const auto p = static_cast<std::uint32_t>(trace.processes.size());
    event_offset_.resize(p + 1, 0);
    for (std::uint32_t i = 0; i < p; ++i)
        event_offset_[i + 1] =
            event_offset_[i] + static_cast<std::uint32_t>(trace.processes[i].events.size());
    const std::uint32_t n = event_offset_.back();
    event_process_.resize(n);
    start_node_.resize(n);
    finish_node_.resize(n);
    for (std::uint32_t i = 0; i < p; ++i) {
        std::uint32_t serial = 0;
        const auto& events = trace.processes[i].events;
        for (std::uint32_t j = 0; j < events.size(); ++j) {
            const EventId e = event_offset_[i] + j;
            event_process_[e] = i;
            start_node_[e] = static_cast<NodeId>(node_process_.size());
            node_process_.push_back(i);
            node_serial_.push_back(serial++);
            node_event_.push_back(e);
            if (events[j].kind == EventKind::Computation) {
                node_process_.push_back(i);
                node_serial_.push_back(serial++);
                node_event_.push_back(e);
            }
            finish_node_[e] = static_cast<NodeId>(node_process_.size() - 1);
        }
    }
    add_sync_edges();
    assign_slots();
}

void TemporalGraph::assign_slots() {
    const std::uint32_t p = process_count();
    const std::uint32_t nodes = node_count();
    process_slot_.assign(p, kNone);
    process_node_base_.assign(p, 0);
    process_event_base_.assign(p, 0);
    std::vector<std::uint32_t> slot_tail;       // last process of each slot
    std::vector<std::uint32_t> slot_node_count; // nodes in each slot so far
    auto node_total = [&](std::uint32_t q) {
        return process_begin(q) == process_end(q)
                   ? 0u
                   : finish_node_[process_end(q) - 1] - start_node_[process_begin(q)] + 1;
    };
    auto open_slot = [&](std::uint32_t process, std::uint32_t slot) {
        if (slot == kNone) {
            slot = static_cast<std::uint32_t>(slot_events_.size());
            slot_events_.emplace_back();
            slot_tail.push_back(kNone);
            slot_node_count.push_back(0);
        }
        process_slot_[process] = slot;
        process_node_base_[process] = slot_node_count[slot];
        process_event_base_[process] = static_cast<std::uint32_t>(slot_events_[slot].size());
        slot_tail[slot] = process;
        for (EventId e = process_begin(process); e < process_end(process); ++e)
            slot_events_[slot].push_back(e);
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
    std::vector<std::uint32_t> in_offsets(nodes + 1, 0), out_offsets(nodes + 1, 0);
    for (const auto& [from, to] : sync_edges_) {
        ++in_offsets[to + 1];
        ++out_offsets[from + 1];
    }
    for (NodeId v = 0; v < nodes; ++v) {
        in_offsets[v + 1] += in_offsets[v];
        out_offsets[v + 1] += out_offsets[v];
    }
    std::vector<NodeId> in_sources(sync_edges_.size()), out_targets(sync_edges_.size());
    {
        std::vector<std::uint32_t> in_fill(in_offsets.begin(), in_offsets.end() - 1);
        std::vector<std::uint32_t> out_fill(out_offsets.begin(), out_offsets.end() - 1);
        for (const auto& [from, to] : sync_edges_) {
            in_sources[in_fill[to]++] = from;
            out_targets[out_fill[from]++] = to;
        }
    }
    auto has_process_successor = [&](NodeId v) {
        return node_process_[v] != kNone && v + 1 < nodes &&
               node_process_[v + 1] == node_process_[v];
    };
    auto has_process_predecessor = [&](NodeId v) {
        return node_process_[v] != kNone && v > 0 && node_process_[v - 1] == node_process_[v];
    };
    std::vector<std::uint32_t> waiting(nodes, 0); // unprocessed predecessors
    std::vector<NodeId> ready;
    for (NodeId v = 0; v < nodes; ++v) {
        waiting[v] = in_offsets[v + 1] - in_offsets[v] + (has_process_predecessor(v) ? 1 : 0);
        if (waiting[v] == 0) ready.push_back(v);
    }
    std::reverse(ready.begin(), ready.end());                            // lowest processes first
    std::unordered_map<NodeId, std::pair<Clock, std::uint32_t>> pending; // clock, uses left
    std::vector<Clock> running(p);
    while (!ready.empty()) {
        const NodeId v = ready.back();
        ready.pop_back();
        const std::uint32_t q = node_process_[v];
        Clock clock;
        if (has_process_predecessor(v)) clock = std::move(running[q]);
        for (std::uint32_t i = in_offsets[v]; i < in_offsets[v + 1]; ++i) {
            const auto it = pending.find(in_sources[i]);
            merge(clock, it->second.first);
            if (--it->second.second == 0) pending.erase(it);
        }
        if (q != kNone) {
            if (!has_process_predecessor(v)) { // q starts: reuse a slot whose tail has ended
                std::uint32_t slot = kNone;
                for (std::size_t k = 0; k < clock.size() && slot == kNone; ++k) {
                    const std::uint32_t tail = slot_tail[clock[k].slot];
                    if (clock[k].serial >= 0 && static_cast<std::uint32_t>(clock[k].serial) + 1 >=
                                                    process_node_base_[tail] + node_total(tail))
                        slot = clock[k].slot;
                }
                open_slot(q, slot);
            }
            set_serial(clock, process_slot_[q], static_cast<std::int32_t>(node_slot_serial(v)));
        }
        const std::uint32_t uses = out_offsets[v + 1] - out_offsets[v];
        if (uses > 0) pending.emplace(v, std::make_pair(clock, uses));
        if (has_process_successor(v)) running[q] = std::move(clock);
        // Successors: synchronization targets, then the process successor (walked first).
        for (std::uint32_t i = out_offsets[v]; i < out_offsets[v + 1]; ++i)
            if (--waiting[out_targets[i]] == 0) ready.push_back(out_targets[i]);
        if (has_process_successor(v) && --waiting[v + 1] == 0) ready.push_back(v + 1);
    }
    // Processes in a cycle of G (a malformed trace) were not reached: slots of their own.
    for (std::uint32_t q = 0; q < p; ++q)
        if (process_slot_[q] == kNone && process_begin(q) != process_end(q)) open_slot(q, kNone);
}

const Event& TemporalGraph::event(EventId e) const {
    const std::uint32_t p = event_process_[e];
    return trace_->processes[p].events[e - event_offset_[p]];
}

std::vector<Edge> TemporalGraph::edges() const {
    std::vector<Edge> out;
    out.reserve(node_count() + sync_edges_.size());
    for (NodeId v = 0; v + 1 < node_count(); ++v)
        if (node_process_[v] != kNone && node_process_[v] == node_process_[v + 1])
            out.emplace_back(v, v + 1);
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
    for (EventId e = 0; e < event_count(); ++e) {
        const Event& ev = event(e);
        switch (ev.kind) {
        case EventKind::Fork: {
            const std::uint32_t child = ev.object;
            if (child < process_count() && process_begin(child) != process_end(child))
                sync_edges_.emplace_back(finish_node_[e], start_node_[process_begin(child)]);
            break;
        }
        case EventKind::Join: {
            const std::uint32_t child = ev.object;
            if (child < process_count() && process_begin(child) != process_end(child))
                sync_edges_.emplace_back(finish_node_[process_end(child) - 1], start_node_[e]);
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
        EventId last_release = kNone;
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
                if (last_release != kNone &&
                    event_process_[last_release] != event_process_[op.event])
                    sync_edges_.emplace_back(finish_node_[last_release], start_node_[op.event]);
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
                sync_edges_.emplace_back(finish_node_[posts[static_cast<std::size_t>(post)]],
                                         start_node_[waits[k]]);
        }
        for (const auto& [episode, ends] : episodes) {
            if (ends.first.empty() || ends.second.empty()) continue;
            const auto v = static_cast<NodeId>(node_process_.size());
            node_process_.push_back(kNone);
            node_serial_.push_back(0);
            node_event_.push_back(kNone);
            for (EventId a : ends.first)
                sync_edges_.emplace_back(finish_node_[a], v);
            for (EventId d : ends.second)
                sync_edges_.emplace_back(v, start_node_[d]);
        }
        i = j;
    }
}

std::vector<std::pair<EventId, EventId>> TemporalGraph::sync_event_edges() const {
    std::vector<std::pair<EventId, EventId>> out;
    std::unordered_map<NodeId, std::vector<EventId>> into_virtual;
    for (const auto& [from, to] : sync_edges_)
        if (node_process_[to] == kNone) into_virtual[to].push_back(node_event_[from]);
    for (const auto& [from, to] : sync_edges_) {
        if (node_process_[to] == kNone) continue;
        if (node_process_[from] != kNone)
            out.emplace_back(node_event_[from], node_event_[to]);
        else
            for (EventId a : into_virtual[from])
                out.emplace_back(a, node_event_[to]);
    }
    return out;
}

} // namespace firstrace
