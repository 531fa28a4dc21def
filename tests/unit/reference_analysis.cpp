#include "reference_analysis.hpp"

#include <deque>
#include <functional>

#include "dependences.hpp"

namespace firstrace::reference {

Reachability::Reachability(std::uint32_t nodes, const std::vector<Edge>& edges)
    : succ_(nodes), reach_(nodes) {
    for (const auto& [a, b] : edges)
        succ_[a].insert(b);
    for (NodeId s = 0; s < nodes; ++s) {
        std::deque<NodeId> queue{s};
        reach_[s].insert(s);
        while (!queue.empty()) {
            const NodeId v = queue.front();
            queue.pop_front();
            for (NodeId w : succ_[v])
                if (reach_[s].insert(w).second) queue.push_back(w);
        }
    }
}

bool Reachability::reaches_nonempty(NodeId from, NodeId to) const {
    for (NodeId w : succ_[from])
        if (reaches(w, to)) return true;
    return false;
}

namespace {

std::set<std::uint64_t> addresses(const Trace& t, const Event& e, std::uint8_t kind) {
    std::set<std::uint64_t> out;
    for (std::uint32_t s = e.first_site; s < e.first_site + e.site_count; ++s) {
        const AccessSite& site = t.sites[s];
        if ((site.flags & kAccessAtomic) || !(site.flags & kind)) continue;
        for (std::uint32_t r = site.first_range; r < site.first_range + site.range_count; ++r)
            for (std::uint64_t a = t.ranges[r].lo; a < t.ranges[r].hi; ++a)
                out.insert(a);
    }
    return out;
}

bool intersects(const std::set<std::uint64_t>& x, const std::set<std::uint64_t>& y) {
    for (auto v : x)
        if (y.count(v)) return true;
    return false;
}

} // namespace

ReferenceResult analyze(const TemporalGraph& g, Ordering ordering) {
    const Trace& trace = g.trace();
    ReferenceResult out;
    const Reachability G(g.node_count(), g.edges());
    auto precedes = [&](EventId x, EventId y) {
        return G.reaches(g.finish_node(x), g.start_node(y));
    };
    auto unordered = [&](EventId x, EventId y) { return !precedes(x, y) && !precedes(y, x); };

    // Apparent races: all pairs.
    const std::uint32_t n = g.event_count();
    std::vector<std::set<std::uint64_t>> reads(n), writes(n);
    for (EventId e = 0; e < n; ++e) {
        if (!g.is_computation(e)) continue;
        reads[e] = addresses(trace, g.event(e), kAccessRead);
        writes[e] = addresses(trace, g.event(e), kAccessWrite);
    }
    for (EventId a = 0; a < n; ++a)
        for (EventId b = a + 1; b < n; ++b) {
            if (!g.is_computation(a) || !g.is_computation(b) ||
                g.event_process(a) == g.event_process(b))
                continue;
            if (!unordered(a, b)) continue;
            ReferenceRace r{a, b, {}, false, false, RaceStatus::Feasible, false};
            for (auto v : writes[a])
                if (reads[b].count(v) || writes[b].count(v)) r.conflicts.insert(v);
            for (auto v : writes[b])
                if (reads[a].count(v)) r.conflicts.insert(v);
            if (r.conflicts.empty()) continue;
            r.a_ctrl_b = intersects(writes[a], reads[b]);
            r.b_ctrl_a = intersects(writes[b], reads[a]);
            out.races.push_back(r);
        }

    // Direct dependences (uncompacted), then transitive ones by enumerating every chain of
    // mutually unordered events.
    auto allowed = [&](EventId x, EventId y) { return dependence_allowed(g, ordering, x, y); };
    auto build = [&](bool event_control) {
        std::map<EventId, std::set<EventId>> direct;
        for (const auto& r : out.races) {
            if ((!event_control || r.a_ctrl_b) && allowed(r.a, r.b)) direct[r.a].insert(r.b);
            if ((!event_control || r.b_ctrl_a) && allowed(r.b, r.a)) direct[r.b].insert(r.a);
        }
        std::set<std::pair<EventId, EventId>> deps;
        for (const auto& [x, ys] : direct)
            for (EventId y : ys)
                deps.insert({x, y});
        std::vector<EventId> path;
        std::function<void()> chain = [&] {
            const EventId last = path.back();
            if (!direct.count(last)) return;
            for (EventId y : direct[last]) {
                bool ok = true;
                for (EventId z : path)
                    ok =
                        ok && z != y && g.event_process(z) != g.event_process(y) && unordered(z, y);
                if (!ok) continue;
                if (path.size() >= 2 && allowed(path.front(), y)) deps.insert({path.front(), y});
                path.push_back(y);
                chain();
                path.pop_back();
            }
        };
        for (const auto& [x, ys] : direct) {
            path.assign(1, x);
            chain();
        }
        std::vector<Edge> edges = g.edges();
        for (const auto& [x, y] : deps)
            edges.emplace_back(g.start_node(x), g.finish_node(y));
        return edges;
    };
    out.gd_edges = build(false);
    out.ge_edges = build(true);
    const Reachability GD(g.node_count(), out.gd_edges);
    const Reachability GE(g.node_count(), out.ge_edges);
    auto same_scc = [&](const Reachability& R, NodeId x, NodeId y) {
        return R.reaches(x, y) && R.reaches(y, x);
    };

    for (auto& r : out.races) {
        const NodeId as = g.start_node(r.a), af = g.finish_node(r.a), bs = g.start_node(r.b),
                     bf = g.finish_node(r.b);
        r.tangled = same_scc(GD, af, bs) || same_scc(GD, bf, as);
        if (!GD.reaches(af, bs) && !GD.reaches(bf, as))
            r.status = RaceStatus::Feasible;
        else if (!GE.reaches(af, bf) && !GE.reaches(bf, af))
            r.status = RaceStatus::FeasibleEc;
        else
            r.status = RaceStatus::Unvalidated;
    }
    const std::size_t r = out.races.size();
    // Two tangled races share a tangle when their SCC nodes are mutually reachable in G_D.
    auto tangle_node = [&](const ReferenceRace& x) {
        const NodeId af = g.finish_node(x.a), bs = g.start_node(x.b);
        return same_scc(GD, af, bs) ? af : g.finish_node(x.b);
    };
    out.same_tangle.assign(r, std::vector<bool>(r, false));
    for (std::size_t i = 0; i < r; ++i)
        for (std::size_t j = 0; j < r; ++j)
            out.same_tangle[i][j] =
                out.races[i].tangled && out.races[j].tangled &&
                same_scc(GD, tangle_node(out.races[i]), tangle_node(out.races[j]));

    // Ordering: Ê* by BFS over G plus direct event-control edges start -> start.
    std::vector<Edge> ehat = g.edges();
    for (const auto& x : out.races) {
        if (x.a_ctrl_b && allowed(x.a, x.b))
            ehat.emplace_back(g.start_node(x.a), g.start_node(x.b));
        if (x.b_ctrl_a && allowed(x.b, x.a))
            ehat.emplace_back(g.start_node(x.b), g.start_node(x.a));
    }
    const Reachability E(g.node_count(), ehat);
    auto estar = [&](EventId x, EventId y) {
        return E.reaches_nonempty(g.start_node(x), g.start_node(y));
    };
    std::vector<std::vector<bool>> R(r, std::vector<bool>(r, false));
    for (std::size_t i = 0; i < r; ++i)
        for (std::size_t j = 0; j < r; ++j) {
            const auto& x = out.races[i];
            const auto& y = out.races[j];
            R[i][j] = (estar(x.a, y.a) && estar(x.b, y.a)) || (estar(x.a, y.b) && estar(x.b, y.b));
        }
    auto closure = R; // R̂* (Warshall)
    for (std::size_t k = 0; k < r; ++k)
        for (std::size_t i = 0; i < r; ++i)
            if (closure[i][k])
                for (std::size_t j = 0; j < r; ++j)
                    if (closure[k][j]) closure[i][j] = true;
    out.partition_of.assign(r, kNone);
    for (std::size_t i = 0; i < r; ++i) {
        if (out.partition_of[i] != kNone) continue;
        const auto id = static_cast<std::uint32_t>(out.partitions.size());
        out.partitions.emplace_back();
        for (std::size_t j = i; j < r; ++j)
            if (j == i || (closure[i][j] && closure[j][i])) {
                out.partition_of[j] = id;
                out.partitions.back().insert(static_cast<std::uint32_t>(j));
            }
    }
    const std::size_t np = out.partitions.size();
    out.first.assign(np, true);
    std::vector<std::vector<bool>> before(np,
                                          std::vector<bool>(np, false)); // R̂* between partitions
    for (std::size_t i = 0; i < r; ++i)
        for (std::size_t j = 0; j < r; ++j) {
            if (out.partition_of[i] == out.partition_of[j] || !closure[i][j]) continue;
            out.first[out.partition_of[j]] = false;
            before[out.partition_of[i]][out.partition_of[j]] = true;
        }
    // The partition DAG is the Hasse diagram: P -> Q with nothing in between.
    out.after.assign(np, {});
    for (std::size_t P = 0; P < np; ++P)
        for (std::size_t Q = 0; Q < np; ++Q) {
            if (!before[P][Q]) continue;
            bool between = false;
            for (std::size_t X = 0; X < np && !between; ++X)
                between = before[P][X] && before[X][Q];
            if (!between) out.after[P].insert(static_cast<std::uint32_t>(Q));
        }
    return out;
}

} // namespace firstrace::reference
