#include "reference_analysis.hpp"

#include <deque>
#include <functional>

#include "dependences.hpp"

namespace firstrace::reference {

Reachability::Reachability(std::uint32_t nodes, const std::vector<Edge>& edges)
    : succ_(nodes), reach_(nodes) {
    for (const auto& [a, b] : edges)
        succ_[a].insert(b);
    for (const NodeId s : ids<NodeId>(nodes)) {
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

// The addresses an event accesses with one kind (kAccessRead / kAccessWrite), plain or atomic.
std::set<std::uint64_t> addresses(const Trace& t, const Event& e, std::uint8_t kind, bool atomic) {
    std::set<std::uint64_t> out;
    for (std::uint32_t s = e.first_site; s < e.first_site + e.site_count; ++s) {
        const AccessSite& site = t.sites[s];
        if (((site.flags & kAccessAtomic) != 0) != atomic || !(site.flags & kind)) continue;
        for (std::uint32_t r = site.first_range; r < site.first_range + site.range_count; ++r)
            for (std::uint64_t a = t.ranges[r].lo; a < t.ranges[r].hi; ++a)
                out.insert(a);
    }
    return out;
}

// READ/WRITE of one event, plain and atomic apart.
struct Accesses {
    std::set<std::uint64_t> plain_read, plain_write, atomic_read, atomic_write;
    bool reads(std::uint64_t v) const { return plain_read.count(v) || atomic_read.count(v); }
    bool writes(std::uint64_t v) const { return plain_write.count(v) || atomic_write.count(v); }
    bool touches(std::uint64_t v) const { return reads(v) || writes(v); }
    std::set<std::uint64_t> all() const {
        std::set<std::uint64_t> out;
        for (const auto* s : {&plain_read, &plain_write, &atomic_read, &atomic_write})
            out.insert(s->begin(), s->end());
        return out;
    }
};

} // namespace

ReferenceResult analyze(const TemporalGraph& g, Ordering ordering) {
    const Trace& trace = g.trace();
    ReferenceResult out;
    const Reachability G(g.node_count(), g.edges());
    auto precedes = [&](EventId x, EventId y) {
        return G.reaches(g.finish_node(x), g.start_node(y));
    };
    auto unordered = [&](EventId x, EventId y) { return !precedes(x, y) && !precedes(y, x); };

    // Apparent races: all pairs, byte by byte. A byte conflicts when one of the two writes it
    // and it is not private to both processes' OS thread; the conflict is a data race unless
    // both accesses are atomic. Pairs with atomic-only conflicts give dependences only.
    const std::uint32_t n = g.event_count();
    IdVector<EventId, Accesses> acc(n);
    for (const EventId e : g.events()) {
        if (!g.is_computation(e)) continue;
        acc[e] = {addresses(trace, g.event(e), kAccessRead, false),
                  addresses(trace, g.event(e), kAccessWrite, false),
                  addresses(trace, g.event(e), kAccessRead, true),
                  addresses(trace, g.event(e), kAccessWrite, true)};
    }
    std::vector<ReferenceRace> conflict_pairs; // races and atomic-only pairs
    for (const EventId a : g.events())
        for (const EventId b : id_range(EventId(a.value + 1), EventId(n))) {
            const ProcessId pa = g.event_process(a), pb = g.event_process(b);
            if (!g.is_computation(a) || !g.is_computation(b) || pa == pb) continue;
            if (!unordered(a, b)) continue;
            ReferenceRace r{a, b, {}, false, false, RaceStatus::Feasible, false};
            bool conflicting = false;
            for (std::uint64_t v : acc[a].all()) {
                if (!acc[b].touches(v) || trace.private_to_both(pa.value, pb.value, {v, v + 1}))
                    continue;
                const Accesses &x = acc[a], &y = acc[b];
                if (!x.writes(v) && !y.writes(v)) continue;
                conflicting = true;
                const bool race = x.plain_write.count(v) || y.plain_write.count(v) ||
                                  (x.atomic_write.count(v) && y.plain_read.count(v)) ||
                                  (y.atomic_write.count(v) && x.plain_read.count(v));
                if (race) r.conflicts.insert(v);
                r.a_ctrl_b = r.a_ctrl_b || (x.writes(v) && y.reads(v));
                r.b_ctrl_a = r.b_ctrl_a || (y.writes(v) && x.reads(v));
            }
            if (!conflicting) continue;
            conflict_pairs.push_back(r);
            (r.conflicts.empty() ? out.atomic_only : out.races).push_back(r);
        }

    // Direct dependences (uncompacted), then transitive ones by enumerating every chain of
    // mutually unordered events.
    auto allowed = [&](EventId x, EventId y) { return dependence_allowed(g, ordering, x, y); };
    auto build = [&](bool event_control) {
        std::map<EventId, std::set<EventId>> direct;
        for (const auto& r : conflict_pairs) {
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
    for (const auto& x : conflict_pairs) {
        if (x.a_ctrl_b && allowed(x.a, x.b))
            ehat.emplace_back(g.start_node(x.a), g.start_node(x.b));
        if (x.b_ctrl_a && allowed(x.b, x.a))
            ehat.emplace_back(g.start_node(x.b), g.start_node(x.a));
    }
    const Reachability E(g.node_count(), ehat);
    auto estar = [&](EventId x, EventId y) {
        return x == y || E.reaches_nonempty(g.start_node(x), g.start_node(y));
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
