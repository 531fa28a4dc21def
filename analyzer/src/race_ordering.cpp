#include "race_ordering.hpp"

#include <algorithm>
#include <queue>
#include <tuple>

namespace firstrace {

OrderingOutcome order_races(const TemporalGraph& g, const std::vector<ApparentRace>& races,
                            const std::vector<DependenceEdge>& direct_event_control,
                            const ProgressCallback& progress) {
    OrderingOutcome out;
    const auto r = static_cast<std::uint32_t>(races.size());
    if (r == 0) return out;
    const std::uint32_t p = g.slot_count(); // chains are timestamp slots
    if (progress) progress("ordering", 0.0);

    // m_x[q] for every race, from the earliest-reach timestamps of Ê*.
    std::vector<std::uint32_t> m(static_cast<std::size_t>(r) * p);
    {
        std::vector<Edge> edges = g.edges();
        for (const auto& e : direct_event_control)
            edges.emplace_back(g.start_node(e.from), g.start_node(e.to));
        const NodeGraph ehat = NodeGraph::from_edges(g.node_count(), std::move(edges));
        const Components comps = strong_components(ehat);
        const EarliestReach reach(g, ehat, comps);
        for (std::uint32_t x = 0; x < r; ++x)
            for (std::uint32_t q = 0; q < p; ++q)
                m[static_cast<std::size_t>(x) * p + q] =
                    std::max(reach.earliest(g.start_node(races[x].a), q),
                             reach.earliest(g.start_node(races[x].b), q));
    }
    if (progress) progress("ordering", 0.4);

    // The graph of races (nodes 0..r-1) and event chains (node r + event id).
    const std::uint32_t n = g.event_count();
    std::vector<Edge> edges;
    for (std::uint32_t x = 0; x < r; ++x)
        for (std::uint32_t q = 0; q < p; ++q) {
            const std::uint32_t j = m[static_cast<std::size_t>(x) * p + q];
            if (j != kNone && j < g.slot_events(q).size())
                edges.emplace_back(x, r + g.slot_events(q)[j]);
        }
    for (std::uint32_t q = 0; q < p; ++q) {
        const auto& chain = g.slot_events(q);
        for (std::size_t i = 0; i + 1 < chain.size(); ++i)
            edges.emplace_back(r + chain[i], r + chain[i + 1]);
    }
    for (std::uint32_t x = 0; x < r; ++x) {
        edges.emplace_back(r + races[x].a, x);
        edges.emplace_back(r + races[x].b, x);
    }
    const NodeGraph graph = NodeGraph::from_edges(r + n, std::move(edges));
    const Components comps = strong_components(graph);
    if (progress) progress("ordering", 0.7);

    // Partitions = components holding races; a first partition is reached from no other one.
    std::vector<std::uint32_t> comp_partition(comps.count, kNone);
    std::vector<std::vector<std::uint32_t>> members;
    for (std::uint32_t x = 0; x < r; ++x) {
        auto& id = comp_partition[comps.of[x]];
        if (id == kNone) {
            id = static_cast<std::uint32_t>(members.size());
            members.emplace_back();
        }
        members[id].push_back(x);
    }
    const auto partition_count = static_cast<std::uint32_t>(members.size());
    std::vector<bool> reached(comps.count, false);
    {
        // Components are numbered in reverse topological order.
        const ComponentMembers members_of(comps);
        for (std::uint32_t c = comps.count; c-- > 0;) {
            const bool propagate = reached[c] || comp_partition[c] != kNone;
            if (!propagate) continue;
            for (std::uint32_t i = members_of.begin[c]; i < members_of.begin[c + 1]; ++i)
                graph.for_each_successor(members_of.nodes[i], [&](NodeId w) {
                    if (comps.of[w] != c) reached[comps.of[w]] = true;
                });
        }
    }

    // What each partition reaches through R̂* (nonempty paths): per process, the earliest event
    // position of the chain it reaches. Partition R reaches partition Q iff for some process q,
    // Q has a race event at or after er_R[q] (a race is entered only from its events' chains).
    const std::vector<std::uint32_t> er_comp = earliest_reach_by_component(
        graph, comps, p, [&](NodeId v) { return v >= r ? g.event_slot(v - r) : kNone; },
        [&](NodeId v) { return g.event_slot_position(v - r); });
    auto er = [&](std::uint32_t part, std::uint32_t q) {
        return er_comp[static_cast<std::size_t>(comps.of[members[part].front()]) * p + q];
    };
    // Per process: (event position, partition) of race events, sorted; per partition its last
    // race event position in each process, and the earliest chain position its races R̂-reach.
    std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> events_of(p);
    std::vector<std::uint32_t> last_pos(static_cast<std::size_t>(partition_count) * p, kNone);
    std::vector<std::uint32_t> direct(static_cast<std::size_t>(partition_count) * p, kNone);
    for (std::uint32_t x = 0; x < r; ++x) {
        const std::uint32_t part = comp_partition[comps.of[x]];
        for (EventId e : {races[x].a, races[x].b}) {
            const std::uint32_t q = g.event_slot(e), j = g.event_slot_position(e);
            events_of[q].emplace_back(j, part);
            auto& lp = last_pos[static_cast<std::size_t>(part) * p + q];
            lp = lp == kNone ? j : std::max(lp, j);
        }
        for (std::uint32_t q = 0; q < p; ++q) {
            auto& d = direct[static_cast<std::size_t>(part) * p + q];
            d = std::min(d, m[static_cast<std::size_t>(x) * p + q]);
        }
    }
    for (auto& list : events_of) {
        std::sort(list.begin(), list.end());
        list.erase(std::unique(list.begin(), list.end()), list.end());
    }
    auto reaches = [&](std::uint32_t from_er_best, std::uint32_t q, std::uint32_t part) {
        const std::uint32_t lp = last_pos[static_cast<std::size_t>(part) * p + q];
        return lp != kNone && from_er_best != kNone && lp >= from_er_best;
    };

    // Partition DAG = the Hasse diagram of R̂* between partitions: the minimal partitions among
    // P's direct R̂ successors. Scanning each process chain from where P's races reach it, a
    // position is covered once two other partitions already seen reach it (one of them is not
    // the partition at that position), so the scan stops there: the work follows the output.
    std::vector<std::vector<std::uint32_t>> after(partition_count);
    std::vector<std::uint32_t> stamp(partition_count, kNone);
    struct Best {
        std::uint32_t value1, part1, value2;
    };
    std::vector<Best> cut(p);
    std::vector<std::uint32_t> seen;
    for (std::uint32_t part = 0; part < partition_count; ++part) {
        std::fill(cut.begin(), cut.end(), Best{kNone, kNone, kNone});
        seen.clear();
        stamp[part] = part;
        auto add = [&](std::uint32_t other) {
            for (std::uint32_t q = 0; q < p; ++q) {
                const std::uint32_t v = er(other, q);
                Best& b = cut[q];
                if (v < b.value1) {
                    if (b.part1 != other) b.value2 = b.value1;
                    b.value1 = v;
                    b.part1 = other;
                } else if (other != b.part1 && v < b.value2) {
                    b.value2 = v;
                }
            }
        };
        for (std::uint32_t q = 0; q < p; ++q) {
            const std::uint32_t from = direct[static_cast<std::size_t>(part) * p + q];
            if (from == kNone) continue;
            auto it = std::lower_bound(events_of[q].begin(), events_of[q].end(),
                                       std::make_pair(from, 0u));
            for (; it != events_of[q].end() && it->first < cut[q].value2; ++it) {
                if (stamp[it->second] == part) continue;
                stamp[it->second] = part;
                seen.push_back(it->second);
                add(it->second);
            }
        }
        for (std::uint32_t other : seen) {
            bool covered = false;
            for (std::uint32_t q = 0; q < p && !covered; ++q)
                covered = reaches(cut[q].part1 == other ? cut[q].value2 : cut[q].value1, q, other);
            if (!covered) after[part].push_back(other);
        }
    }
    if (progress) progress("ordering", 0.9);

    // Ids: Kahn's topological order of the DAG, first partitions first, ties by smallest race.
    std::vector<std::uint32_t> indegree(partition_count, 0);
    for (const auto& succ : after)
        for (std::uint32_t q : succ)
            ++indegree[q];
    using Key = std::tuple<bool, std::uint32_t, std::uint32_t>; // (not first, min race, partition)
    std::priority_queue<Key, std::vector<Key>, std::greater<>> ready;
    auto is_first = [&](std::uint32_t part) { return !reached[comps.of[members[part].front()]]; };
    for (std::uint32_t part = 0; part < partition_count; ++part)
        if (indegree[part] == 0) ready.emplace(!is_first(part), members[part].front(), part);
    std::vector<std::uint32_t> new_id(partition_count, kNone);
    std::uint32_t next = 0;
    while (!ready.empty()) {
        const auto part = std::get<2>(ready.top());
        ready.pop();
        new_id[part] = next++;
        for (std::uint32_t q : after[part])
            if (--indegree[q] == 0) ready.emplace(!is_first(q), members[q].front(), q);
    }
    out.partitions.resize(partition_count);
    out.partition_of_race.resize(r);
    for (std::uint32_t part = 0; part < partition_count; ++part) {
        Partition& P = out.partitions[new_id[part]];
        P.id = new_id[part];
        P.first = is_first(part);
        P.races = members[part];
        for (std::uint32_t q : after[part])
            P.after.push_back(new_id[q]);
        std::sort(P.after.begin(), P.after.end());
        for (std::uint32_t x : members[part])
            out.partition_of_race[x] = P.id;
    }
    if (progress) progress("ordering", 1.0);
    return out;
}

} // namespace firstrace
