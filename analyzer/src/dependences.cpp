#include "dependences.hpp"

#include <algorithm>
#include <optional>

#include "galloping_search.hpp"

namespace firstrace {

// Order classes: events of one process between two of its nodes with a synchronization edge to
// or from another process (or a barrier episode). Two events of one class are unordered with
// exactly the same events of other processes: a path from one to another process leaves
// through such a node at or after the event's finish, and a path into it arrives through one
// at or before its start, and the nodes between two events of one class have no such edge.
std::vector<std::uint32_t> order_classes(const TemporalGraph& g) {
    std::vector<bool> boundary(g.node_count(), false);
    for (const auto& [from, to] : g.sync_edges())
        if (g.node_process(from) != g.node_process(to) || !g.node_process(from).valid()) {
            boundary[from.value] = true;
            boundary[to.value] = true;
        }
    std::vector<std::uint32_t> out(g.event_count(), 0);
    std::uint32_t next = 0;
    for (const ProcessId p : g.processes()) {
        ++next;
        for (const EventId e : g.process_events(p)) {
            const bool sync = boundary[g.start_node(e).value] || boundary[g.finish_node(e).value];
            if (sync) ++next;
            out[e.value] = next;
            if (sync) ++next;
        }
    }
    return out;
}

namespace {

// The order of events against one event e (the search's origin, tested against every event of
// the processes with targets): on vector timestamps e's start row and finish slot position are
// found once, and each test reads the other event's nodes only.
class OrderAgainst {
  public:
    OrderAgainst(const TemporalGraph& g, const EventOrder& order, EventId e)
        : g_(g), order_(order), e_(e), vt_(order.timestamps()) {
        if (vt_ == nullptr) return;
        start_row_.emplace(vt_->row(g.start_node(e)));
        finish_ = vt_->source(g.finish_node(e));
    }
    // y precedes e (order.precedes(y, e)).
    bool after(EventId y) const {
        return vt_ != nullptr
                   ? VectorTimestamps::reaches(vt_->source(g_.finish_node(y)), *start_row_)
                   : order_.precedes(y, e_);
    }
    // e precedes y.
    bool before(EventId y) const {
        return vt_ != nullptr ? vt_->reaches(finish_, g_.start_node(y)) : order_.precedes(e_, y);
    }
    bool unordered(EventId y) const { return !after(y) && !before(y); }

  private:
    const TemporalGraph& g_;
    const EventOrder& order_;
    EventId e_;
    const VectorTimestamps* vt_;
    std::optional<VectorTimestamps::Row> start_row_;
    VectorTimestamps::Source finish_{};
};

// When the sweep dropped atomic-only pairs of some events (UnorderedConflicts::approximated),
// the chains through them are not all in the lists. A chain's events are mutually unordered,
// so an origin with no such event unordered with it (and not one itself) has every chain in
// the lists, and its search stays exact; the others take the conservative superset: an edge to
// the first event unordered with them in each other timestamp slot. A slot's events are
// totally ordered in G, so that edge implies every later one of the slot, and every
// dependence target of the origin is unordered with it: G_D and G_E only gain paths.
class ApproximatedOrigins {
  public:
    ApproximatedOrigins(const TemporalGraph& g, const EventOrder& order,
                        const std::vector<bool>& approximated)
        : g_(g), order_(order), approximated_(approximated) {
        if (approximated.empty()) return;
        windows_.resize(g.slot_count());
        emitted_.resize(g.slot_count());
        marked_before_.resize(g.slot_count());
        for (const SlotId s : g.slots()) {
            const std::vector<EventId>& chain = g.slot_events(s);
            auto& before = marked_before_[s];
            before.reserve(chain.size() + 1);
            before.push_back(0);
            for (const EventId e : chain)
                before.push_back(before.back() + (approximated[e.value] ? 1 : 0));
        }
    }

    // Whether orig's dependences are the superset; if so, its edges to the first event y
    // unordered with it in each other slot are in `direct` and `all`. Origins must come in
    // ascending order within a process (the windows only move forward along it). An edge from
    // a later event of the same process to the same y implies the earlier one (process order):
    // it takes the earlier one's place (on a stress loop most windows stay where they are).
    bool superset(EventId orig, std::vector<DependenceEdge>& direct,
                  std::vector<DependenceEdge>& all) {
        if (approximated_.empty()) return false;
        const ProcessId p = g_.event_process(orig);
        const SlotId own = g_.event_slot(orig);
        bool loose = approximated_[orig.value];
        for (const SlotId s : g_.slots()) {
            if (s == own) continue;
            Window& w = window(orig, p, s);
            loose = loose || marked_before_[s][w.hi] != marked_before_[s][w.lo];
        }
        if (!loose) return false;
        for (const SlotId s : g_.slots()) {
            const Window& w = windows_[s];
            if (s == own || w.lo == w.hi) continue;
            const EventId y = g_.slot_events(s)[w.lo];
            Emitted& last = emitted_[s];
            if (last.process == p && last.to == y && last.direct < direct.size() &&
                direct[last.direct].to == y && all[last.all].to == y) {
                direct[last.direct].from = orig;
                all[last.all].from = orig;
                continue;
            }
            last = Emitted{p, y, direct.size(), all.size()};
            direct.push_back({orig, y, false});
            all.push_back({orig, y, true});
        }
        return true;
    }

  private:
    struct Window {
        ProcessId process = ProcessId::none(); // of the origin it was computed for
        std::uint32_t lo = 0, hi = 0;          // positions in the slot's chain
    };
    Window& window(EventId orig, ProcessId p, SlotId s) {
        Window& w = windows_[s];
        const std::vector<EventId>& chain = g_.slot_events(s);
        const auto n = static_cast<std::uint32_t>(chain.size());
        if (w.process != p) w = Window{p, 0, 0};
        w.lo =
            first_false(w.lo, n, [&](std::uint32_t j) { return order_.precedes(chain[j], orig); });
        w.hi = first_false(std::max(w.hi, w.lo), n,
                           [&](std::uint32_t j) { return !order_.precedes(orig, chain[j]); });
        return w;
    }

    const TemporalGraph& g_;
    const EventOrder& order_;
    const std::vector<bool>& approximated_;
    IdVector<SlotId, Window> windows_;
    IdVector<SlotId, std::vector<std::uint32_t>> marked_before_; // per slot: prefix counts
    struct Emitted { // the last superset edge into a slot, and where it is
        ProcessId process = ProcessId::none();
        EventId to;
        std::size_t direct = 0, all = 0;
    };
    IdVector<SlotId, Emitted> emitted_;
};

class ChainSearch {
  public:
    ChainSearch(const TemporalGraph& g, const EventOrder& order, const EventClocks& clocks,
                std::uint64_t budget, const DirectDependenceLists& lists)
        : g_(g), order_(order), clocks_(clocks), budget_(budget), lists_(lists),
          approximated_(g, order, lists.approximated()), in_path_(g.process_count(), false),
          timestamps_(order.timestamps()), best_(g.process_count(), Best{kNone, false}),
          bound_(g.process_count(), kNone), targets_of_process_(g.process_count()),
          order_class_(order_classes(g)) {
        class_on_path_.assign(order_class_.empty()
                                  ? 0
                                  : *std::max_element(order_class_.begin(), order_class_.end()) + 1,
                              false);
        for (const EventId y : g.events())
            if (!lists.sources(y).empty()) targets_of_process_[g.event_process(y)].push_back(y);
        for (const ProcessId q : g.processes())
            if (!targets_of_process_[q].empty()) processes_with_targets_.push_back(q);
    }

    // Edges from `orig`, appended to `direct` and `all`. Returns false when the budget ran out
    // and the conservative fallback was used.
    bool run(EventId orig, std::vector<DependenceEdge>& direct, std::vector<DependenceEdge>& all) {
        if (approximated_.superset(orig, direct, all)) return false;
        touched_.clear();
        steps_ = 0;
        exhausted_ = false;
        compute_bounds(orig);
        // orig's earliest target in each process: the later ones change neither the direct
        // edges nor `best_` (the list ascends, and a process's targets are consecutive in it)
        for_each_first_of_process(lists_.targets(orig), [&](EventId y) {
            const ProcessId q = g_.event_process(y);
            const std::uint32_t j = g_.event_index(y);
            if (j < direct_min(q)) note_direct(q, j);
            record(y, false);
        });
        for (const ProcessId q : touched_direct_)
            direct.push_back({orig, g_.event_id(q, direct_best_[q]), false});
        for (const ProcessId q : touched_direct_)
            direct_best_[q] = kNone;
        touched_direct_.clear();

        push_path(orig);
        in_path_[g_.event_process(orig)] = true;
        if (open_ > 0) extend(orig);
        in_path_[g_.event_process(orig)] = false;
        pop_path();
        forget_paths();
        if (exhausted_) fallback();
        for (const ProcessId q : touched_) {
            all.push_back({orig, g_.event_id(q, best_[q].index), best_[q].transitive});
            best_[q] = Best{kNone, false};
        }
        return !exhausted_;
    }

  private:
    using TargetIt = const std::uint32_t*; // event numbers

    struct Best {
        std::uint32_t index;
        bool transitive;
    };

    std::uint32_t direct_min(ProcessId q) {
        if (direct_best_.empty()) direct_best_.assign(g_.process_count(), kNone);
        return direct_best_[q];
    }
    void note_direct(ProcessId q, std::uint32_t j) {
        if (direct_best_[q] == kNone) touched_direct_.push_back(q);
        direct_best_[q] = j;
    }

    void record(EventId y, bool transitive) {
        const EventRef at = g_.event_ref(y);
        const ProcessId q(at.process);
        const std::uint32_t j = at.index;
        Best& b = best_[q];
        if (b.index == kNone) touched_.push_back(q);
        if (j < b.index || b.index == kNone) {
            b = Best{j, transitive};
            if (j == bound_[q]) --open_;
        }
    }

    // The earliest event of each process any dependence from orig could reach. A direct one
    // is a target of orig; a transitive one y ends a chain whose last step w -> y comes from
    // an event w of another process than orig's (chain events are mutually unordered, so one
    // per process) that is unordered with orig; and y is unordered with orig and (complete
    // mode) not finished before orig started. Along a process, the events preceding orig form
    // a prefix, those it precedes and, in complete mode, those finished before it started a
    // suffix and a prefix. Once every process has a target at its bound, no chain can improve
    // the result: the search stops, exactly (this is what ends it early on dense traces where
    // nearly every event conflicts). Events whose direct dependences in all come from orig's
    // process or from events ordered with orig are no bound: a bound no chain can end at
    // makes the search exhaust every chain before it can stop.
    void compute_bounds(EventId orig) {
        open_ = 0;
        open_list_.clear();
        const ProcessId p = g_.event_process(orig);
        const OrderAgainst against(g_, order_, orig);
        // only processes with a target can have a bound (the others keep kNone): one step per
        // such process, not per process (250 000 short threads, a handful of them racing)
        for (const ProcessId q : processes_with_targets_) {
            bound_[q] = kNone;
            const auto& list = targets_of_process_[q];
            if (q == p) continue;
            auto it = std::partition_point(list.begin(), list.end(), [&](EventId y) {
                return against.after(y) || !clocks_.allowed(orig, y);
            });
            for (; it != list.end() && !against.before(*it); ++it) {
                if (is_direct_target(orig, *it) || has_chain_step_in(against, p, *it)) {
                    bound_[q] = g_.event_index(*it);
                    ++open_;
                    open_list_.push_back(q);
                    break;
                }
            }
        }
    }

    bool is_direct_target(EventId x, EventId y) const { return lists_.targets(x).contains(y); }

    // f(y) for the first entry y of each process in `list`, in order.
    template <class F> void for_each_first_of_process(const DependenceList& list, F&& f) const {
        for (TargetIt it = list.stored_begin; it != list.stored_end;) {
            const EventId y(*it);
            f(y);
            it = end_of_process(it, list.stored_end, g_.process_end(g_.event_process(y)));
        }
        const std::uint32_t last = list.first + list.length;
        for (std::uint32_t i = list.gives->next(list.first, last); i != last;) {
            const TargetIt at = list.run + (i - list.first);
            const EventId y(*at);
            f(y);
            const TargetIt q_end =
                end_of_process(at, list.run + list.length, g_.process_end(g_.event_process(y)));
            i = list.gives->next(list.first + static_cast<std::uint32_t>(q_end - list.run), last);
        }
    }

    // Whether y has an incoming direct dependence that could be a chain's last step from
    // orig: from an event of another process than orig's, unordered with orig.
    bool has_chain_step_in(const OrderAgainst& orig, ProcessId p, EventId y) const {
        return lists_.sources(y).any(
            [&](EventId w) { return g_.event_process(w) != p && orig.unordered(w); });
    }

    // Depth-first over chains of direct dependences. A chain's extensions depend only on the set
    // of its events (they must stay mutually unordered with all of them) and on its last event,
    // and a smaller set allows more: a chain reaching y whose event set contains the set of an
    // earlier chain reaching y adds nothing, and is cut. From each event the open bounds among
    // its targets are tried first: on dense traces most chains of two or three steps end at a
    // bound, and the search stops once every process is at its bound.
    //
    // Every target tried is a step of the budget, also one rejected at once (its process is on
    // the path, or it is ordered with an event of the path): which origins fall back depends on
    // that count, so it is kept exactly, but the rejected targets are counted a run at a time.
    // x's targets are sorted by event id, so those of one process are a run in process order:
    // in x's stored part (below x) or in its race run (above x; those races of the run that give
    // the dependence).
    void extend(EventId x) {
        const DependenceList targets = lists_.targets(x);
        for (std::size_t k = 0; k < open_list_.size(); ++k) {
            const ProcessId q = open_list_[k];
            if (in_path_[q] || best_[q].index == bound_[q]) continue;
            const EventId y = g_.event_id(q, bound_[q]);
            if (targets.contains(y)) {
                if (!step(y)) return;
            }
        }
        const AllTargets stored;
        for (TargetIt it = targets.stored_begin; it != targets.stored_end;) {
            const ProcessId q = g_.event_process(EventId(*it));
            const TargetIt run_end = end_of_process(it, targets.stored_end, g_.process_end(q));
            if (!steps_through_run(it, run_end, q, stored)) return;
            it = run_end;
        }
        const GivenTargets given{targets};
        // from each process's first target to its last (the races around give no dependence)
        const TargetIt run_end = targets.run + targets.length;
        const std::uint32_t last = targets.first + targets.length;
        for (std::uint32_t i = targets.gives->next(targets.first, last); i != last;) {
            const TargetIt at = targets.run + (i - targets.first);
            const ProcessId q = g_.event_process(EventId(*at));
            const TargetIt q_end = end_of_process(at, run_end, g_.process_end(q));
            // to the process's last target: the binary searches span no race that gives none
            const std::uint32_t given_end = targets.gives->end_of_set(i, given.race(q_end));
            if (!steps_through_run(at, targets.run + (given_end - targets.first), q, given)) return;
            i = targets.gives->next(given.race(q_end), last);
        }
    }

    // Which events of a stretch of x's list are targets, how many, and f for each in order
    // while it returns true (false if stopped): of the stored part, all; of the race run, those
    // whose race gives the dependence.
    struct AllTargets {
        static std::uint32_t count(TargetIt first, TargetIt last) {
            return static_cast<std::uint32_t>(last - first);
        }
        template <class F> static bool for_each(TargetIt first, TargetIt last, F&& f) {
            for (; first != last; ++first)
                if (!f(EventId(*first))) return false;
            return true;
        }
    };
    struct GivenTargets {
        const DependenceList& list;
        std::uint32_t race(TargetIt it) const {
            return list.first + static_cast<std::uint32_t>(it - list.run);
        }
        std::uint32_t count(TargetIt first, TargetIt last) const {
            return list.gives->count(race(first), race(last));
        }
        template <class F> bool for_each(TargetIt first, TargetIt last, F&& f) const {
            return list.gives->for_each_set(race(first), race(last), [&](std::uint32_t i) {
                return f(EventId(list.run[i - list.first]));
            });
        }
    };

    // The steps to the targets [first, last) of process q, in order; false when the search is
    // over. The path's events other than the last (the last races with every target) must each
    // be unordered with a target: the targets preceding one of them are a prefix of the run
    // (process order), those one of them precedes a suffix, so the targets that pass are the
    // run between the two, found by binary search; the others are steps rejected at once.
    // [first, last) are events of q, ascending, of which `targets` says which are targets.
    template <class Targets>
    bool steps_through_run(TargetIt first, TargetIt last, ProcessId q, const Targets& targets) {
        if (in_path_[q]) return count_rejected(targets.count(first, last));
        TargetIt lo = first, hi = last;
        if (path_.size() >= 2 && timestamps_ != nullptr) {
            // The same tests on the vector timestamps, with what belongs to an event of the
            // path read once per path event (prepare_path) and what belongs to the run's
            // process once per run: per test one load from a row of the path's events.
            prepare_path();
            const std::size_t n = path_.size() - 1;
            const std::uint32_t slot = g_.process_slot(q).value;
            // a node's serial in its slot is its id plus its process's offset, modulo 2^32
            const std::uint32_t base = g_.process_serial_offset(q);
            const auto before_path = [&](std::uint32_t y_value) { // y's finish reaches a path
                const EventId y(y_value);                         // event's start
                const auto serial = static_cast<std::int32_t>(base + g_.finish_node(y).value);
                for (std::size_t k = 0; k < n; ++k)
                    if (prepared_[k].start_row[slot] >= serial) return true;
                return false;
            };
            const auto not_after_path = [&](std::uint32_t y) { // no path event's finish reaches y
                const NodeId start = g_.start_node(EventId(y));
                const VectorTimestamps::Row row =
                    timestamps_->row(start, {SlotId(slot), base + start.value});
                for (std::size_t k = 0; k < n; ++k)
                    if (row[prepared_[k].finish_slot] >= prepared_[k].finish_serial) return false;
                return true;
            };
            lo = std::partition_point(first, last, before_path);
            hi = std::partition_point(lo, last, not_after_path);
        } else if (path_.size() >= 2) {
            const auto before_path = [&](std::uint32_t y) {
                for (std::size_t k = 0; k + 1 < path_.size(); ++k)
                    if (order_.precedes(EventId(y), path_[k])) return true;
                return false;
            };
            const auto not_after_path = [&](std::uint32_t y) {
                for (std::size_t k = 0; k + 1 < path_.size(); ++k)
                    if (order_.precedes(path_[k], EventId(y))) return false;
                return true;
            };
            lo = std::partition_point(first, last, before_path);
            hi = std::partition_point(lo, last, not_after_path);
        }
        if (!count_rejected(targets.count(first, lo))) return false;
        if (!targets.for_each(lo, hi, [&](EventId y) { return step_unordered(y, q); }))
            return false;
        return count_rejected(targets.count(hi, last));
    }

    // `n` steps rejected at once (step() without the path checks). False when the search is
    // over: every process reached at its bound, or the budget spent.
    bool count_rejected(std::ptrdiff_t n) {
        if (n == 0) return true;
        if (open_ == 0) return false;
        steps_ += static_cast<std::uint64_t>(n);
        if (steps_ > budget_) {
            exhausted_ = true;
            return false;
        }
        return true;
    }

    // Extends the current path by the direct dependence to y. Returns false when the search
    // is over (budget spent, or every process reached at its bound).
    bool step(EventId y) {
        if (open_ == 0) return false; // every process reached at its bound
        const ProcessId q = g_.event_process(y);
        if (in_path_[q]) return count_rejected(1);
        // The last event and y race, so they are unordered; check the rest of the path.
        for (std::size_t k = 0; k + 1 < path_.size(); ++k)
            if (!order_.unordered(path_[k], y)) return count_rejected(1);
        return step_unordered(y, q);
    }

    // step() to a target y of process q that is off the path and unordered with its events.
    bool step_unordered(EventId y, ProcessId q) {
        if (open_ == 0) return false;
        if (++steps_ > budget_) {
            exhausted_ = true;
            return false;
        }
        push_path(y);
        if (!remember(y)) {
            pop_path();
            return true;
        }
        if (path_.size() >= 3 && clocks_.allowed(path_.front(), y)) record(y, true);
        in_path_[q] = true;
        extend(y);
        in_path_[q] = false;
        pop_path();
        return !(exhausted_ || open_ == 0);
    }

    // The path with its order classes: a mark per class on it (one event per process, so the
    // classes of a path are distinct) and the signature of each prefix (class_bit).
    void push_path(EventId y) {
        const std::uint32_t c = order_class_[y.value];
        path_signature_.push_back((path_.empty() ? 0 : path_signature_.back()) | class_bit(c));
        path_.push_back(y);
        path_classes_.push_back(c);
        class_on_path_[c] = true;
    }
    void pop_path() {
        if (prepared_.size() == path_.size()) prepared_.pop_back();
        class_on_path_[path_classes_.back()] = false;
        path_classes_.pop_back();
        path_signature_.pop_back();
        path_.pop_back();
    }

    // Stores the set of order classes of the current path (ending in y) unless a subset of it
    // already reached y. Returns whether it was new. Events of one order class are unordered
    // with exactly the same events (order_classes), so a chain's possible extensions depend on
    // the classes of its events, not on which event of a class it holds: on traces whose
    // threads never synchronize with each other (one class per thread) a chain is its last
    // event and its set of processes.
    bool remember(EventId y) {
        const std::uint64_t signature = path_signature_.back();
        if (seen_head_.empty()) seen_head_.assign(g_.event_count(), kNone);
        for (std::uint32_t k = seen_head_[y]; k != kNone; k = seen_[k].next) {
            const SeenSet& s = seen_[k];
            if ((s.signature & ~signature) != 0) continue; // a class of s is not on the path
            const auto begin = pool_.begin() + s.offset;
            if (std::all_of(begin, begin + s.size,
                            [&](std::uint32_t c) { return class_on_path_[c]; }))
                return false;
        }
        if (seen_head_[y] == kNone) seen_touched_.push_back(y);
        seen_.push_back({seen_head_[y], static_cast<std::uint32_t>(pool_.size()),
                         static_cast<std::uint32_t>(path_classes_.size()), signature});
        seen_head_[y] = static_cast<std::uint32_t>(seen_.size() - 1);
        pool_.insert(pool_.end(), path_classes_.begin(), path_classes_.end());
        return true;
    }

    // The timestamps of the path's events but the last (which races with every target), as
    // steps_through_run reads them: an event's start row, and its finish node's slot and
    // serial. Kept as the path grows and shrinks, so each is read once per push.
    void prepare_path() {
        while (prepared_.size() + 1 < path_.size()) {
            const EventId e = path_[prepared_.size()];
            const VectorTimestamps::Source finish = timestamps_->source(g_.finish_node(e));
            prepared_.push_back({timestamps_->row(g_.start_node(e)), finish.slot, finish.serial});
        }
    }

    // A set's signature has the bit of each of its classes: a subset's bits are a subset.
    static std::uint64_t class_bit(std::uint32_t c) {
        return std::uint64_t(1) << ((c * 0x9E3779B9u) >> 26);
    }

    void forget_paths() {
        for (EventId y : seen_touched_)
            seen_head_[y] = kNone;
        seen_touched_.clear();
        seen_.clear();
        pool_.clear();
    }

    // Conservative superset once the exact search is too expensive: a transitive target in
    // process q ends a chain of direct dependences, so it has an incoming one, and it is
    // unordered with orig and allowed by the ordering mode: it lies at or after bound_[q]
    // (compute_bounds), and an edge to that event implies them all through process order.
    // Sound for validation (G_D only gains paths), less precise; counted in the statistics.
    // (Bounding by the first event of q unordered with orig instead, as before, also covers
    // events no chain can end at, and made 2 % of the statuses of the random 10^4-line stress
    // trace differ from the exact search.)
    void fallback() {
        for (const ProcessId q : open_list_) // the processes with a bound, in process order
            record(g_.event_id(q, bound_[q]), true);
    }

    const TemporalGraph& g_;
    const EventOrder& order_;
    const EventClocks& clocks_; // dependence_allowed, from one array
    std::uint64_t budget_;
    const DirectDependenceLists& lists_;
    ApproximatedOrigins approximated_;
    IdVector<ProcessId, bool> in_path_;
    std::vector<EventId> path_;
    const VectorTimestamps* timestamps_; // order_'s, or null (see prepare_path)
    struct PreparedEvent {
        VectorTimestamps::Row start_row;
        std::uint32_t finish_slot;
        std::int32_t finish_serial;
    };
    std::vector<PreparedEvent> prepared_; // of path_'s first events, see prepare_path
    IdVector<ProcessId, Best> best_;
    IdVector<ProcessId, std::uint32_t> bound_; // event index per process, see compute_bounds
    std::uint32_t open_ = 0;                   // processes not yet at their bound
    std::vector<ProcessId> open_list_;         // processes with a bound
    IdVector<ProcessId, std::vector<EventId>> targets_of_process_; // events with a direct
                                                                   // dependence in
    std::vector<ProcessId> processes_with_targets_; // those with any, in process order
    std::vector<std::uint32_t> order_class_;        // per event, see order_classes
    std::vector<ProcessId> touched_;
    IdVector<ProcessId, std::uint32_t> direct_best_; // event index per process
    std::vector<ProcessId> touched_direct_;
    struct SeenSet {
        std::uint32_t next;   // previous set stored for the same event
        std::uint32_t offset; // into pool_
        std::uint32_t size;
        std::uint64_t signature; // class_bit of each class
    };
    IdVector<EventId, std::uint32_t> seen_head_;
    std::vector<EventId> seen_touched_;
    std::vector<SeenSet> seen_;
    std::vector<std::uint32_t> pool_;
    std::vector<std::uint32_t> path_classes_;   // order class of each event of path_
    std::vector<std::uint64_t> path_signature_; // class_bit of the classes of each prefix
    std::vector<bool> class_on_path_;           // per order class
    std::uint64_t steps_ = 0;
    bool exhausted_ = false;
};

} // namespace

Dependences compute_dependences(const TemporalGraph& g, const EventOrder& order,
                                const UnorderedConflicts& conflicts, DependenceKind kind,
                                Ordering ordering, std::uint64_t budget,
                                const ProgressCallback& progress) {
    const EventClocks clocks(g, ordering, conflicts.races.size() + conflicts.atomic_only.size());
    DirectDependenceLists lists(g, conflicts, clocks);
    return compute_dependences(g, order, lists, clocks, kind, budget, progress);
}

Dependences compute_dependences(const TemporalGraph& g, const EventOrder& order,
                                DirectDependenceLists& lists, const EventClocks& clocks,
                                DependenceKind kind, std::uint64_t budget,
                                const ProgressCallback& progress) {
    lists.select(kind);
    Dependences deps;
    ChainSearch search(g, order, clocks, budget, lists);
    const char* stage = kind == DependenceKind::SharedData ? "shared-data dependences"
                                                           : "event-control dependences";
    for (const EventId e : g.events()) {
        if (lists.targets(e).empty()) continue;
        if (progress && (e.value & 0x3fff) == 0)
            progress(stage, double(e.value) / double(g.event_count()));
        if (!search.run(e, deps.direct, deps.all)) ++deps.fallback_origins;
        ++deps.origins;
    }
    if (progress) progress(stage, 1.0);
    // Grown by doubling: up to twice their size held, through the other kind's search and the
    // later stages, in address space (GLib's mutex: 1.8·10^7 edges of 12 bytes in a capacity of
    // 3.4·10^7, four such lists; DESIGN-NOTES "Reachability on lock hand-overs").
    deps.direct.shrink_to_fit();
    deps.all.shrink_to_fit();
    return deps;
}

} // namespace firstrace
