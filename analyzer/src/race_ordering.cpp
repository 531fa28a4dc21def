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
    const std::uint32_t p = g.process_count();
    if (progress) progress("ordering", 0.0);

    // m_x[q] for every race, from the earliest-reach timestamps of Ê*.
    std::vector<std::uint32_t> m(static_cast<std::size_t>(r) * p);
    {
        std::vector<Edge> edges = g.edges();
        for (const auto& e : direct_event_control) edges.emplace_back(g.start_node(e.from), g.start_node(e.to));
        const NodeGraph ehat = NodeGraph::from_edges(g.node_count(), std::move(edges));
        const Components comps = strong_components(ehat);
        const EarliestReach reach(g, ehat, comps);
        for (std::uint32_t x = 0; x < r; ++x)
            for (std::uint32_t q = 0; q < p; ++q)
                m[static_cast<std::size_t>(x) * p + q] =
                    std::max(reach.earliest(g.start_node(races[x].a), q), reach.earliest(g.start_node(races[x].b), q));
    }
    if (progress) progress("ordering", 0.4);

    // The graph of races (nodes 0..r-1) and event chains (node r + event id).
    const std::uint32_t n = g.event_count();
    std::vector<Edge> edges;
    for (std::uint32_t x = 0; x < r; ++x)
        for (std::uint32_t q = 0; q < p; ++q) {
            const std::uint32_t j = m[static_cast<std::size_t>(x) * p + q];
            if (j != kNone && g.process_begin(q) + j < g.process_end(q)) edges.emplace_back(x, r + g.event_id(q, j));
        }
    for (std::uint32_t q = 0; q < p; ++q)
        for (EventId e = g.process_begin(q); e + 1 < g.process_end(q); ++e) edges.emplace_back(r + e, r + e + 1);
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
        std::vector<std::uint32_t> begin(comps.count + 1, 0);
        for (auto c : comps.of) ++begin[c + 1];
        for (std::uint32_t c = 0; c < comps.count; ++c) begin[c + 1] += begin[c];
        std::vector<NodeId> nodes(comps.of.size());
        std::vector<std::uint32_t> fill(begin.begin(), begin.end() - 1);
        for (NodeId v = 0; v < comps.of.size(); ++v) nodes[fill[comps.of[v]]++] = v;
        for (std::uint32_t c = comps.count; c-- > 0;) {
            const bool propagate = reached[c] || comp_partition[c] != kNone;
            if (!propagate) continue;
            for (std::uint32_t i = begin[c]; i < begin[c + 1]; ++i)
                graph.for_each_successor(nodes[i], [&](NodeId w) {
                    if (comps.of[w] != c) reached[comps.of[w]] = true;
                });
        }
    }

    // Partition DAG: P -> Q when a race of P R̂-orders a race of Q, i.e. Q has an event at or
    // after min over P's races of m_x[q].
    std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> events_of(p);  // (index, partition)
    for (std::uint32_t x = 0; x < r; ++x) {
        const std::uint32_t part = comp_partition[comps.of[x]];
        for (EventId e : {races[x].a, races[x].b}) events_of[g.event_process(e)].emplace_back(g.event_index(e), part);
    }
    for (auto& list : events_of) {
        std::sort(list.begin(), list.end());
        list.erase(std::unique(list.begin(), list.end()), list.end());
    }
    std::vector<std::vector<std::uint32_t>> after(partition_count);
    std::vector<std::uint32_t> stamp(partition_count, kNone);
    std::vector<std::uint32_t> low(p);
    for (std::uint32_t part = 0; part < partition_count; ++part) {
        std::fill(low.begin(), low.end(), kNone);
        for (std::uint32_t x : members[part])
            for (std::uint32_t q = 0; q < p; ++q) low[q] = std::min(low[q], m[static_cast<std::size_t>(x) * p + q]);
        stamp[part] = part;
        for (std::uint32_t q = 0; q < p; ++q) {
            if (low[q] == kNone) continue;
            auto it = std::lower_bound(events_of[q].begin(), events_of[q].end(), std::make_pair(low[q], 0u));
            for (; it != events_of[q].end(); ++it) {
                if (stamp[it->second] == part) continue;
                stamp[it->second] = part;
                after[part].push_back(it->second);
            }
        }
    }
    if (progress) progress("ordering", 0.9);

    // Ids: Kahn's topological order of the DAG, first partitions first, ties by smallest race.
    std::vector<std::uint32_t> indegree(partition_count, 0);
    for (const auto& succ : after)
        for (std::uint32_t q : succ) ++indegree[q];
    using Key = std::tuple<bool, std::uint32_t, std::uint32_t>;  // (not first, min race, partition)
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
        for (std::uint32_t q : after[part]) P.after.push_back(new_id[q]);
        std::sort(P.after.begin(), P.after.end());
        for (std::uint32_t x : members[part]) out.partition_of_race[x] = P.id;
    }
    if (progress) progress("ordering", 1.0);
    return out;
}

}  // namespace firstrace
