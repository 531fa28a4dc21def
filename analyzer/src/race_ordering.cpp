// The race ordering of thesis ch. 8 as six named stages (race_ordering.hpp gives the idea):
//   1. race_reach           m_x[q]: where each race's R̂ (Def 8.1) enters each chain, from Ê*
//   2. race_chain_graph     races and event chains as one graph: x R̂* y iff a path x -> y
//   3. group_partitions     its strongly connected components holding races (Def 8.2)
//   4. reached_components   which components another partition reaches: the first partitions
//                           are the others (Thm 8.2: each holds a feasible race)
//   5. partition_hasse_diagram   the DAG of partitions: the Hasse diagram of R̂* between them
//   6. number_partitions    ids in Kahn's topological order, first partitions first
#include "race_ordering.hpp"

#include <algorithm>
#include <queue>
#include <tuple>

#include "analysis_ids.hpp"

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

// Nodes 0..r-1 are the races, node r + e the event e on its chain (NodeId here: a node of this
// graph, not of G):
//     race x -> chain(q, m_x[q]),  chain(q, i) -> chain(q, i+1),  event e -> the races of e.
// A path from race x to race y exists exactly when x R̂* y.
struct RaceChainGraph {
    NodeGraph graph;
    Components components;
    std::uint32_t races = 0;
    NodeId race_node(RaceId x) const { return NodeId(x.value); }
    NodeId event_node(EventId e) const { return NodeId(races + e.value); }
    bool is_event(NodeId v) const { return v.value >= races; }
    EventId event_of(NodeId v) const { return EventId(v.value - races); }
};

RaceChainGraph race_chain_graph(const TemporalGraph& g, const std::vector<ApparentRace>& races,
                                const RaceReach& reach) {
    RaceChainGraph out;
    out.races = static_cast<std::uint32_t>(races.size());
    std::vector<Edge> edges;
    for (RaceId x : ids<RaceId>(races.size()))
        for (const SlotId q : g.slots()) {
            const std::uint32_t j = reach.at(x, q);
            if (j != kNone && j < g.slot_events(q).size())
                edges.emplace_back(out.race_node(x), out.event_node(g.slot_events(q)[j]));
        }
    for (const SlotId q : g.slots()) {
        const auto& chain = g.slot_events(q);
        for (std::size_t i = 0; i + 1 < chain.size(); ++i)
            edges.emplace_back(out.event_node(chain[i]), out.event_node(chain[i + 1]));
    }
    for (RaceId x : ids<RaceId>(races.size())) {
        edges.emplace_back(out.event_node(races[x.value].a), out.race_node(x));
        edges.emplace_back(out.event_node(races[x.value].b), out.race_node(x));
    }
    out.graph = NodeGraph::from_edges(out.races + g.event_count(), std::move(edges));
    out.components = strong_components(out.graph);
    return out;
}

// Partitions (Def 8.2): the components holding races, numbered in order of their smallest race.
struct Partitions {
    IdVector<ComponentId, PartitionId> of_component;    // none(): no race in the component
    IdVector<PartitionId, std::vector<RaceId>> members; // ascending
    IdVector<PartitionId, ComponentId> component;
};

Partitions group_partitions(const RaceChainGraph& rg) {
    Partitions out;
    out.of_component = IdVector<ComponentId, PartitionId>(rg.components.count);
    for (RaceId x : ids<RaceId>(rg.races)) {
        const ComponentId c{rg.components.of[rg.race_node(x)]};
        PartitionId& part = out.of_component[c];
        if (!part.valid()) {
            part = out.members.next_id();
            out.members.emplace_back();
            out.component.push_back(c);
        }
        out.members[part].push_back(x);
    }
    return out;
}

// Components reached from a partition by a non-empty path: a partition whose component is
// not reached is first (no race of another partition is R̂*-before it).
std::vector<bool> reached_components(const RaceChainGraph& rg, const Partitions& parts) {
    const Components& comps = rg.components;
    std::vector<bool> reached(comps.count, false);
    // Components are numbered in reverse topological order.
    const ComponentMembers members_of(comps);
    for (std::uint32_t c = comps.count; c-- > 0;) {
        const bool propagate = reached[c] || parts.of_component[ComponentId{c}].valid();
        if (!propagate) continue;
        for (std::uint32_t i = members_of.begin[c]; i < members_of.begin[c + 1]; ++i)
            rg.graph.for_each_successor(members_of.nodes[i], [&](NodeId w) {
                if (comps.of[w] != c) reached[comps.of[w]] = true;
            });
    }
    return reached;
}

// The DAG of partitions: the minimal partitions among each partition P's R̂ successors (the
// Hasse diagram of R̂* between partitions).
//
// What P reaches through R̂* (non-empty paths) is, per chain q, the earliest chain position
// it reaches (reach_from); partition R reaches partition Q iff for some chain q, Q has a race
// event at or after R's position in q (a race is entered only from its events' chains).
// Scanning each chain from where P's own races enter it (enter), a position is covered once
// two other partitions already seen reach it (one of them is not the partition at that
// position), so the scan stops there: the work follows the output, with no scan of all pairs.
IdVector<PartitionId, std::vector<PartitionId>>
partition_hasse_diagram(const TemporalGraph& g, const std::vector<ApparentRace>& races,
                        const RaceReach& reach, const RaceChainGraph& rg, const Partitions& parts) {
    const std::uint32_t p = g.slot_count();
    const std::size_t count = parts.members.size();
    const std::vector<std::uint32_t> reach_by_component = earliest_reach_by_component(
        rg.graph, rg.components, p,
        [&](NodeId v) { return rg.is_event(v) ? g.event_slot(rg.event_of(v)) : SlotId::none(); },
        [&](NodeId v) { return g.event_slot_position(rg.event_of(v)); });
    auto reach_from = [&](PartitionId part, SlotId q) {
        return reach_by_component[std::size_t(parts.component[part].value) * p + q.value];
    };
    auto partition_of = [&](RaceId x) {
        return parts.of_component[ComponentId{rg.components.of[rg.race_node(x)]}];
    };
    // Per chain: (position, partition) of race events, sorted; per partition and chain its
    // last race event position, and the earliest position its own races R̂-order (enter).
    IdVector<SlotId, std::vector<std::pair<std::uint32_t, PartitionId>>> race_events_of(p);
    std::vector<std::uint32_t> last_position(count * p, kNone);
    std::vector<std::uint32_t> enter(count * p, kNone);
    for (RaceId x : ids<RaceId>(races.size())) {
        const PartitionId part = partition_of(x);
        for (EventId e : {races[x.value].a, races[x.value].b}) {
            const SlotId q = g.event_slot(e);
            const std::uint32_t j = g.event_slot_position(e);
            race_events_of[q].emplace_back(j, part);
            auto& last = last_position[std::size_t(part.value) * p + q.value];
            last = last == kNone ? j : std::max(last, j);
        }
        for (const SlotId q : g.slots()) {
            auto& d = enter[std::size_t(part.value) * p + q.value];
            d = std::min(d, reach.at(x, q));
        }
    }
    for (auto& list : race_events_of) {
        std::sort(list.begin(), list.end());
        list.erase(std::unique(list.begin(), list.end()), list.end());
    }
    // Whether `part` has a race event at or after `from` in chain q.
    auto has_race_event_from = [&](std::uint32_t from, SlotId q, PartitionId part) {
        const std::uint32_t last = last_position[std::size_t(part.value) * p + q.value];
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
    IdVector<SlotId, TwoEarliest> covered(p);
    std::vector<PartitionId> seen;
    for (PartitionId part : ids<PartitionId>(count)) {
        std::fill(covered.begin(), covered.end(), TwoEarliest{kNone, PartitionId::none(), kNone});
        seen.clear();
        visited_by[part] = part;
        auto add = [&](PartitionId other) {
            for (const SlotId q : g.slots()) {
                const std::uint32_t v = reach_from(other, q);
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
        for (const SlotId q : g.slots()) {
            const std::uint32_t from = enter[std::size_t(part.value) * p + q.value];
            if (from == kNone) continue;
            auto it = std::lower_bound(race_events_of[q].begin(), race_events_of[q].end(),
                                       std::make_pair(from, PartitionId{0}));
            for (; it != race_events_of[q].end() && it->first < covered[q].second; ++it) {
                if (visited_by[it->second] == part) continue;
                visited_by[it->second] = part;
                seen.push_back(it->second);
                add(it->second);
            }
        }
        for (PartitionId other : seen) {
            bool through_another = false;
            for (const SlotId q : g.slots()) {
                if (through_another) break;
                through_another = has_race_event_from(
                    covered[q].earliest_from == other ? covered[q].second : covered[q].earliest, q,
                    other);
            }
            if (!through_another) after[part].push_back(other);
        }
    }
    return after;
}

// Ids: Kahn's topological order of the DAG, first partitions first, ties by smallest race.
OrderingOutcome number_partitions(const Partitions& parts,
                                  const IdVector<PartitionId, std::vector<PartitionId>>& after,
                                  const std::vector<bool>& reached, std::size_t race_count) {
    const std::size_t count = parts.members.size();
    auto is_first = [&](PartitionId part) { return !reached[parts.component[part].value]; };
    IdVector<PartitionId, std::uint32_t> indegree(count, 0);
    for (const auto& successors : after)
        for (PartitionId q : successors)
            ++indegree[q];
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
    out.partition_of_race.resize(race_count);
    for (PartitionId part : ids<PartitionId>(count)) {
        Partition& P = out.partitions[new_id[part]];
        P.id = new_id[part];
        P.first = is_first(part);
        for (RaceId x : parts.members[part]) {
            P.races.push_back(x.value);
            out.partition_of_race[x.value] = P.id;
        }
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
    if (progress) progress("ordering", 0.4);
    const RaceChainGraph rg = race_chain_graph(g, races, reach);
    if (progress) progress("ordering", 0.7);
    const Partitions parts = group_partitions(rg);
    const std::vector<bool> reached = reached_components(rg, parts);
    const auto after = partition_hasse_diagram(g, races, reach, rg, parts);
    if (progress) progress("ordering", 0.9);
    OrderingOutcome out = number_partitions(parts, after, reached, races.size());
    if (progress) progress("ordering", 1.0);
    return out;
}

} // namespace firstrace
