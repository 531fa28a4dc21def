// The race ordering of thesis ch. 8 as named stages (race_ordering.hpp gives the idea):
//   1. RaceReach            m_x[q]: where each race's R̂ (Def 8.1) enters each chain, from Ê*
//   2. RaceEventGraph       races and race events on their chains as one implicit graph:
//                           x R̂* y iff a path x -> y; successors are computed, not stored
//   3. strong_components    its strongly connected components (strong_components.hpp), in
//                           reverse topological order; those holding races are the partitions
//                           (Def 8.2)
//   4. ChainReach           per component holding race events, the earliest position reached
//                           in each chain (what a partition is R̂*-before)
//   5. partition_hasse_diagram   the DAG of partitions: the Hasse diagram of R̂* between them;
//                           the first partitions are those without a predecessor (Thm 8.2: each
//                           holds a feasible race)
//   6. number_partitions    ids in Kahn's topological order, first partitions first
#include "race_ordering.hpp"

#include <algorithm>
#include <limits>
#include <queue>
#include <stdexcept>
#include <tuple>

#include "analysis_ids.hpp"
#include "strong_components.hpp"

namespace firstrace {
namespace {

// Per race and chain (timestamp slot) q, the slot position from which race x R̂-orders the
// events of q: m_x[q] = max(er(a_s)[q], er(b_s)[q]) with er the earliest-reach timestamps of
// Ê* (G plus the direct event-control edges moved to start -> start, end of thesis 8.2).
// Computed when asked from the per-event timestamps rather than stored per race: a table of
// races x chains is hundreds of bytes per race with many threads (issue 14).
class RaceReach {
  public:
    RaceReach(const TemporalGraph& g, const std::vector<ApparentRace>& races,
              const std::vector<DependenceEdge>& direct_event_control)
        : g_(g), races_(races), reach_(event_control_reach(g, direct_event_control)) {}
    std::uint32_t at(RaceId x, SlotId q) const {
        const ApparentRace& r = races_[x.value];
        return std::max(reach_.earliest(g_.start_node(r.a), q),
                        reach_.earliest(g_.start_node(r.b), q));
    }

  private:
    static EarliestReach event_control_reach(const TemporalGraph& g,
                                             const std::vector<DependenceEdge>& direct) {
        std::vector<Edge> edges = g.edges();
        for (const auto& e : direct)
            edges.emplace_back(g.start_node(e.from), g.start_node(e.to));
        const NodeGraph ehat = NodeGraph::from_edges(g.node_count(), std::move(edges));
        return EarliestReach(g, ehat, strong_components(ehat));
    }
    const TemporalGraph& g_;
    const std::vector<ApparentRace>& races_;
    EarliestReach reach_;
};

// The graph whose paths are R̂* (race_ordering.hpp), restricted to the events that take part
// in races: an event of no race enters no race, so a path through it can only go on along its
// chain, and the next race event of the chain stands for it. Nodes 0..r-1 are the races, nodes
// r.. the race events in (chain, position) order; successors are computed when asked:
//     race x -> entry(x, q) for every chain q (the first race event at or after m_x[q]),
//     race event -> the next race event of its chain, then the races it takes part in.
// The edges (r·p of them) are never stored: issue 14 measured the stored graph, copied three
// times for the component search, as the largest cost of the analysis on dense traces.
class RaceEventGraph {
  public:
    RaceEventGraph(const TemporalGraph& g, const std::vector<ApparentRace>& races,
                   const RaceReach& reach)
        : g_(g), reach_(reach), records_(races), races_(static_cast<std::uint32_t>(races.size())),
          next_race_event_(g.event_count(), kNone) {
        std::vector<bool> in_race(g.event_count(), false);
        for (const ApparentRace& x : races) {
            in_race[x.a.value] = true;
            in_race[x.b.value] = true;
        }
        chain_begin_.reserve(g.slot_count() + 1);
        for (const SlotId q : g.slots()) {
            chain_begin_.push_back(static_cast<std::uint32_t>(position_.size()));
            for (const EventId e : g.slot_events(q))
                if (in_race[e.value]) {
                    next_race_event_[e.value] = static_cast<std::uint32_t>(position_.size());
                    position_.push_back(g.event_slot_position(e));
                    slot_.push_back(q);
                }
        }
        chain_begin_.push_back(static_cast<std::uint32_t>(position_.size()));
        // An event of no race points to the next race event of its chain.
        for (const SlotId q : g.slots()) {
            std::uint32_t next = kNone;
            const auto& chain = g.slot_events(q);
            for (std::size_t i = chain.size(); i-- > 0;) {
                std::uint32_t& n = next_race_event_[chain[i].value];
                if (n == kNone)
                    n = next;
                else
                    next = n;
            }
        }
        if (std::uint64_t(races_) + position_.size() >=
            std::numeric_limits<std::uint32_t>::max() / 2)
            throw std::length_error("race ordering: " + std::to_string(races_) +
                                    " races are more than the ordering stage can number");
        // The races of each race event, ascending (races come sorted).
        race_begin_.assign(position_.size() + 1, 0);
        for (const ApparentRace& x : races) {
            ++race_begin_[next_race_event_[x.a.value] + 1];
            ++race_begin_[next_race_event_[x.b.value] + 1];
        }
        for (std::size_t k = 0; k + 1 < race_begin_.size(); ++k)
            race_begin_[k + 1] += race_begin_[k];
        race_list_.resize(race_begin_.back());
        std::vector<std::uint32_t> fill(race_begin_.begin(), race_begin_.end() - 1);
        for (RaceId x : ids<RaceId>(races.size())) {
            race_list_[fill[next_race_event_[races[x.value].a.value]]++] = x;
            race_list_[fill[next_race_event_[races[x.value].b.value]]++] = x;
        }
    }

    std::uint32_t node_count() const { return races_ + event_nodes(); }
    std::uint32_t race_count() const { return races_; }
    std::uint32_t event_nodes() const { return static_cast<std::uint32_t>(position_.size()); }
    static std::uint32_t race_node(RaceId x) { return x.value; }
    bool is_race(std::uint32_t v) const { return v < races_; }
    // Event nodes: v = race_count() + k.
    SlotId slot(std::uint32_t v) const { return slot_[v - races_]; }
    std::uint32_t position(std::uint32_t v) const { return position_[v - races_]; }
    std::uint32_t node_of_race_event(EventId e) const { return races_ + next_race_event_[e.value]; }
    // The nodes of race x's two events.
    std::pair<std::uint32_t, std::uint32_t> event_nodes(RaceId x) const {
        return {node_of_race_event(records_[x.value].a), node_of_race_event(records_[x.value].b)};
    }
    // The node where race x enters chain q (kNone: none).
    std::uint32_t entry(RaceId x, SlotId q) const { return entry_at(q, reach_.at(x, q)); }
    // The first race event of chain q at or after slot position j (kNone: none).
    std::uint32_t entry_at(SlotId q, std::uint32_t j) const {
        const auto& chain = g_.slot_events(q);
        if (j >= chain.size()) return kNone;
        const std::uint32_t k = next_race_event_[chain[j].value];
        return k == kNone ? kNone : races_ + k;
    }
    // The races of event node v.
    const RaceId* races_begin(std::uint32_t v) const {
        return race_list_.data() + race_begin_[v - races_];
    }
    const RaceId* races_end(std::uint32_t v) const {
        return race_list_.data() + race_begin_[v - races_ + 1];
    }
    // The next race event of v's chain (kNone: v is its last).
    std::uint32_t chain_next(std::uint32_t v) const {
        const std::uint32_t k = v - races_ + 1;
        return k < chain_begin_[slot_[v - races_].value + 1] ? v + 1 : kNone;
    }

    // The successor of v numbered `cursor` or later, advancing the cursor past it; kNone at
    // the end. Race: cursor = chain; event: 0 = chain next, 1 + i = its i-th race.
    std::uint32_t next_successor(std::uint32_t v, std::uint32_t& cursor) const {
        if (is_race(v)) {
            while (cursor < g_.slot_count()) {
                const std::uint32_t t = entry(RaceId(v), SlotId(cursor++));
                if (t != kNone) return t;
            }
            return kNone;
        }
        if (cursor == 0) {
            ++cursor;
            const std::uint32_t next = chain_next(v);
            if (next != kNone) return next;
        }
        const std::uint32_t i = race_begin_[v - races_] + cursor - 1;
        if (i >= race_begin_[v - races_ + 1]) return kNone;
        ++cursor;
        return race_node(race_list_[i]);
    }

  private:
    const TemporalGraph& g_;
    const RaceReach& reach_;
    const std::vector<ApparentRace>& records_;
    std::uint32_t races_;
    std::vector<std::uint32_t> next_race_event_; // per event of G: index of the race event at
                                                 // or after it on its chain (kNone: none)
    std::vector<std::uint32_t> chain_begin_;     // per chain: its first race event index
    std::vector<std::uint32_t> position_;        // per race event: its slot position
    std::vector<SlotId> slot_;                   // per race event: its chain
    std::vector<std::uint32_t> race_begin_;      // per race event: where its races start
    std::vector<RaceId> race_list_;
};

// Partitions (Def 8.2): the components holding races, numbered in order of their smallest race.
struct Partitions {
    std::vector<std::uint32_t> of_race;                 // race -> partition
    IdVector<PartitionId, std::vector<RaceId>> members; // ascending
    IdVector<PartitionId, std::uint32_t> component;
};

Partitions group_partitions(const RaceEventGraph& rg, const StrongComponents& comps) {
    Partitions out;
    std::vector<std::uint32_t> of_component(comps.count, kNone);
    out.of_race.resize(rg.race_count());
    for (RaceId x : ids<RaceId>(rg.race_count())) {
        const std::uint32_t c = comps.of[RaceEventGraph::race_node(x)];
        std::uint32_t& part = of_component[c];
        if (part == kNone) {
            part = static_cast<std::uint32_t>(out.members.size());
            out.members.emplace_back();
            out.component.push_back(c);
        }
        out.members[PartitionId(part)].push_back(x);
        out.of_race[x.value] = part;
    }
    return out;
}

// For every component holding race events and every chain q: the smallest slot position of
// a race event of q reachable from the component by a non-empty path (kNone: none). Only race
// events can end a path between races, so this is what the Hasse diagram needs. A component
// without race events is a single race (races only lead to race events) and gets no row: its
// reach is that of the race events where it enters the chains (reach_of_entries).
class ChainReach {
  public:
    ChainReach(const RaceEventGraph& rg, const StrongComponents& comps, std::uint32_t p)
        : rg_(rg), comps_(comps), p_(p) {
        // Race-event nodes grouped by component, components ascending: reverse topological
        // order, so everything a component reaches outside itself is final before it.
        std::vector<std::pair<std::uint32_t, std::uint32_t>> by_component; // (component, node)
        by_component.reserve(rg.event_nodes());
        for (std::uint32_t v = rg.race_count(); v < rg.node_count(); ++v)
            by_component.emplace_back(comps.of[v], v);
        std::sort(by_component.begin(), by_component.end());
        for (const auto& [c, v] : by_component)
            if (components_.empty() || components_.back() != c) components_.push_back(c);
        reach_.assign(components_.size() * p_, kNone);
        std::vector<std::uint32_t> single_race_entries(p_);
        for (std::size_t i = 0, row = 0; i < by_component.size(); ++row) {
            const std::uint32_t c = by_component[i].first;
            std::uint32_t* out = &reach_[row * p_];
            bool cyclic = false;
            std::fill(single_race_entries.begin(), single_race_entries.end(), kNone);
            std::size_t end = i;
            for (; end < by_component.size() && by_component[end].first == c; ++end) {
                const std::uint32_t v = by_component[end].second;
                const std::uint32_t next = rg.chain_next(v);
                if (next != kNone) cyclic |= add_node(out, c, next);
                for (const RaceId* x = rg.races_begin(v); x != rg.races_end(v); ++x) {
                    const std::uint32_t xc = comps.of[RaceEventGraph::race_node(*x)];
                    if (xc == c) {
                        // A race of this component: its entries are successors of the
                        // component; visited once, from the first of its events here.
                        cyclic = true;
                        const auto [na, nb] = rg.event_nodes(*x);
                        if ((comps.of[na] == c ? na : nb) != v) continue;
                        for (std::uint32_t q = 0; q < p_; ++q) {
                            const std::uint32_t t = rg.entry(*x, SlotId(q));
                            if (t != kNone) add_node(out, c, t);
                        }
                    } else if (const std::uint32_t* in = row_of(xc)) {
                        fold(out, in); // a race of a component with race events
                    } else {
                        // A race alone in its component: entries are monotone along each
                        // chain, so the earliest entry per chain stands for all such races.
                        for (std::uint32_t q = 0; q < p_; ++q)
                            single_race_entries[q] =
                                std::min(single_race_entries[q], rg.entry(*x, SlotId(q)));
                    }
                }
            }
            for (std::uint32_t q = 0; q < p_; ++q)
                if (single_race_entries[q] != kNone) add_node(out, c, single_race_entries[q]);
            if (cyclic || end - i > 1) // every member reaches every member: itself included
                for (std::size_t k = i; k < end; ++k) {
                    const std::uint32_t v = by_component[k].second;
                    std::uint32_t& o = out[rg.slot(v).value];
                    o = std::min(o, rg.position(v));
                }
            i = end;
        }
    }

    // What the race events `entries` (one per chain, kNone: none) reach, themselves included.
    void reach_of_entries(const std::vector<std::uint32_t>& entries, std::uint32_t* out) const {
        std::fill(out, out + p_, kNone);
        for (std::uint32_t t : entries)
            if (t != kNone) {
                fold(out, row_of(comps_.of[t]));
                std::uint32_t& o = out[rg_.slot(t).value];
                o = std::min(o, rg_.position(t));
            }
    }

  private:
    const std::uint32_t* row_of(std::uint32_t component) const {
        const auto it = std::lower_bound(components_.begin(), components_.end(), component);
        if (it == components_.end() || *it != component) return nullptr;
        return &reach_[std::size_t(it - components_.begin()) * p_];
    }
    void fold(std::uint32_t* out, const std::uint32_t* in) const {
        for (std::uint32_t q = 0; q < p_; ++q)
            out[q] = std::min(out[q], in[q]);
    }
    // Adds race event t (a successor of component c) and what it reaches; true if t is in c.
    bool add_node(std::uint32_t* out, std::uint32_t c, std::uint32_t t) const {
        const std::uint32_t d = comps_.of[t];
        if (d == c) return true;
        fold(out, row_of(d));
        std::uint32_t& o = out[rg_.slot(t).value];
        o = std::min(o, rg_.position(t));
        return false;
    }
    const RaceEventGraph& rg_;
    const StrongComponents& comps_;
    std::uint32_t p_;
    std::vector<std::uint32_t> components_; // components with race events, ascending
    std::vector<std::uint32_t> reach_;      // per such component (row) and chain
};

// The DAG of partitions: the minimal partitions among each partition P's R̂ successors (the
// Hasse diagram of R̂* between partitions).
//
// What P reaches through R̂* (non-empty paths) is, per chain q, the earliest race event
// position it reaches (reach_from); partition R reaches partition Q iff for some chain q, Q has
// a race event at or after R's position in q (a race is entered only from its events' chains).
// Scanning each chain from where P's own races enter it (enter), a position is covered once
// two other partitions already seen reach it (one of them is not the partition at that
// position), so the scan stops there: the work follows the output, with no scan of all pairs.
IdVector<PartitionId, std::vector<PartitionId>>
partition_hasse_diagram(const RaceEventGraph& rg, const StrongComponents& comps,
                        const Partitions& parts, std::uint32_t p) {
    const std::size_t count = parts.members.size();
    // Per partition and chain: the race event where its races enter the chain (the earliest
    // entry: entries are monotone along a chain), and its last race event there.
    std::vector<std::uint32_t> enter(count * p, kNone);
    std::vector<std::uint32_t> last_position(count * p, kNone);
    for (PartitionId part : ids<PartitionId>(count))
        for (RaceId x : parts.members[part]) {
            std::uint32_t* e = &enter[std::size_t(part.value) * p];
            for (std::uint32_t q = 0; q < p; ++q)
                e[q] = std::min(e[q], rg.entry(x, SlotId(q)));
            const auto [na, nb] = rg.event_nodes(x);
            for (std::uint32_t v : {na, nb}) {
                auto& last = last_position[std::size_t(part.value) * p + rg.slot(v).value];
                last = last == kNone ? rg.position(v) : std::max(last, rg.position(v));
            }
        }
    std::vector<std::uint32_t> reach_from(count * p, kNone);
    {
        const ChainReach chain_reach(rg, comps, p);
        std::vector<std::uint32_t> entries(p);
        for (std::size_t part = 0; part < count; ++part) {
            std::copy_n(&enter[part * p], p, entries.begin());
            chain_reach.reach_of_entries(entries, &reach_from[part * p]);
        }
    }
    // Per race event: the partitions of its races, ascending and distinct.
    std::vector<std::uint32_t> parts_begin(rg.event_nodes() + 1, 0);
    std::vector<PartitionId> parts_at;
    for (std::uint32_t v = rg.race_count(); v < rg.node_count(); ++v) {
        const std::size_t from = parts_at.size();
        for (const RaceId* x = rg.races_begin(v); x != rg.races_end(v); ++x)
            parts_at.emplace_back(parts.of_race[x->value]);
        std::sort(parts_at.begin() + std::ptrdiff_t(from), parts_at.end());
        parts_at.erase(std::unique(parts_at.begin() + std::ptrdiff_t(from), parts_at.end()),
                       parts_at.end());
        parts_begin[v - rg.race_count() + 1] = static_cast<std::uint32_t>(parts_at.size());
    }
    auto reach_of = [&](PartitionId part, std::uint32_t q) {
        return reach_from[std::size_t(part.value) * p + q];
    };
    // Whether `part` has a race event at or after `from` in chain q.
    auto has_race_event_from = [&](std::uint32_t from, std::uint32_t q, PartitionId part) {
        const std::uint32_t last = last_position[std::size_t(part.value) * p + q];
        return last != kNone && from != kNone && last >= from;
    };

    IdVector<PartitionId, std::vector<PartitionId>> after(count);
    IdVector<PartitionId, PartitionId> visited_by(count); // the partition whose scan saw it
    // Per chain, the two smallest positions reached by the partitions seen so far: the smallest
    // and the one reaching it, and the smallest of any other partition.
    struct TwoEarliest {
        std::uint32_t earliest;
        PartitionId earliest_from;
        std::uint32_t second;
    };
    std::vector<TwoEarliest> covered(p);
    std::vector<PartitionId> seen;
    for (PartitionId part : ids<PartitionId>(count)) {
        std::fill(covered.begin(), covered.end(), TwoEarliest{kNone, PartitionId::none(), kNone});
        seen.clear();
        visited_by[part] = part;
        auto add = [&](PartitionId other) {
            for (std::uint32_t q = 0; q < p; ++q) {
                const std::uint32_t v = reach_of(other, q);
                TwoEarliest& b = covered[q];
                if (v < b.earliest) {
                    if (b.earliest_from != other) b.second = b.earliest;
                    b.earliest = v;
                    b.earliest_from = other;
                } else if (other != b.earliest_from && v < b.second) {
                    b.second = v;
                }
            }
        };
        for (std::uint32_t q = 0; q < p; ++q) {
            std::uint32_t v = enter[std::size_t(part.value) * p + q];
            for (; v != kNone && rg.position(v) < covered[q].second; v = rg.chain_next(v)) {
                const std::uint32_t k = v - rg.race_count();
                for (std::uint32_t i = parts_begin[k]; i < parts_begin[k + 1]; ++i) {
                    const PartitionId other = parts_at[i];
                    if (visited_by[other] == part) continue;
                    visited_by[other] = part;
                    seen.push_back(other);
                    add(other);
                }
            }
        }
        for (PartitionId other : seen) {
            bool through_another = false;
            for (std::uint32_t q = 0; q < p && !through_another; ++q)
                through_another = has_race_event_from(
                    covered[q].earliest_from == other ? covered[q].second : covered[q].earliest, q,
                    other);
            if (!through_another) after[part].push_back(other);
        }
    }
    return after;
}

// Ids: Kahn's topological order of the DAG, first partitions first, ties by smallest race. A
// partition is first when it has no predecessor: no race of another partition is R̂*-before
// it (a finite order has a minimal predecessor when it has any, and that one is in the DAG).
OrderingOutcome number_partitions(Partitions& parts,
                                  const IdVector<PartitionId, std::vector<PartitionId>>& after) {
    const std::size_t count = parts.members.size();
    IdVector<PartitionId, std::uint32_t> indegree(count, 0);
    for (const auto& successors : after)
        for (PartitionId q : successors)
            ++indegree[q];
    const IdVector<PartitionId, std::uint32_t> predecessors = indegree;
    auto is_first = [&](PartitionId part) { return predecessors[part] == 0; };
    using Key = std::tuple<bool, RaceId, PartitionId>; // (not first, smallest race, partition)
    std::priority_queue<Key, std::vector<Key>, std::greater<>> ready;
    for (PartitionId part : ids<PartitionId>(count))
        if (indegree[part] == 0) ready.emplace(!is_first(part), parts.members[part].front(), part);
    IdVector<PartitionId, std::uint32_t> new_id(count, kNone);
    std::uint32_t next = 0;
    while (!ready.empty()) {
        const PartitionId part = std::get<2>(ready.top());
        ready.pop();
        new_id[part] = next++;
        for (PartitionId q : after[part])
            if (--indegree[q] == 0) ready.emplace(!is_first(q), parts.members[q].front(), q);
    }
    OrderingOutcome out;
    out.partitions.resize(count);
    for (PartitionId part : ids<PartitionId>(count)) {
        Partition& P = out.partitions[new_id[part]];
        P.id = new_id[part];
        P.first = is_first(part);
        P.races.reserve(parts.members[part].size());
        for (RaceId x : parts.members[part])
            P.races.push_back(x.value);
        std::vector<RaceId>().swap(parts.members[part]);
        for (PartitionId q : after[part])
            P.after.push_back(new_id[q]);
        std::sort(P.after.begin(), P.after.end());
    }
    return out;
}

} // namespace

OrderingOutcome order_races(const TemporalGraph& g, const std::vector<ApparentRace>& races,
                            const std::vector<DependenceEdge>& direct_event_control,
                            const ProgressCallback& progress) {
    if (races.empty()) return {};
    if (progress) progress("ordering", 0.0);
    const RaceReach reach(g, races, direct_event_control);
    const RaceEventGraph rg(g, races, reach);
    if (progress) progress("ordering", 0.3);
    const StrongComponents comps = strong_components(rg, kNone); // numbered reverse topologically
    if (progress) progress("ordering", 0.6);
    Partitions parts = group_partitions(rg, comps);
    const auto after = partition_hasse_diagram(rg, comps, parts, g.slot_count());
    if (progress) progress("ordering", 0.9);
    std::vector<std::uint32_t>().swap(parts.of_race);
    OrderingOutcome out = number_partitions(parts, after);
    if (progress) progress("ordering", 1.0);
    return out;
}

} // namespace firstrace
