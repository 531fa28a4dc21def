#include "report_ordering_chains.hpp"

#include <deque>

namespace firstrace {

const char* to_string(OrderingVia via) {
    switch (via) {
    case OrderingVia::Start:
        return "start";
    case OrderingVia::ProgramOrder:
        return "program-order";
    case OrderingVia::Synchronization:
        return "synchronization";
    case OrderingVia::EventControl:
        return "event-control";
    }
    return "?";
}

OrderingChains::OrderingChains(const Trace& trace, const AnalysisResult& result)
    : trace_(trace), result_(result) {
    std::uint32_t n = 0;
    for (std::uint32_t p = 0; p < trace.processes.size(); ++p) {
        offset_.push_back(n);
        for (std::uint32_t i = 0; i < trace.processes[p].events.size(); ++i)
            ref_.push_back({p, i});
        n += static_cast<std::uint32_t>(trace.processes[p].events.size());
    }
    // Incoming edges besides process order: synchronization and direct event-control edges
    // (the event-control edge a_s -> b_f moved to a_s -> b_s, as race_ordering.cpp does).
    std::vector<std::uint32_t> count(n + 1, 0);
    auto used = [](const GraphEdge& e) {
        return e.kind == EdgeKind::Ordering || (e.kind == EdgeKind::EventControl && !e.transitive);
    };
    for (const GraphEdge& e : result.edges)
        if (used(e)) ++count[id(e.to) + 1];
    in_begin_.assign(n + 1, 0);
    for (std::uint32_t v = 0; v < n; ++v)
        in_begin_[v + 1] = in_begin_[v] + count[v + 1];
    in_.resize(in_begin_[n]);
    std::vector<std::uint32_t> fill(in_begin_.begin(), in_begin_.end() - 1);
    for (const GraphEdge& e : result.edges)
        if (used(e))
            in_[fill[id(e.to)]++] = {id(e.from), e.kind == EdgeKind::Ordering
                                                     ? OrderingVia::Synchronization
                                                     : OrderingVia::EventControl};
    // Races by event.
    std::vector<std::uint32_t> rc(n + 1, 0);
    for (const Race& r : result.races) {
        ++rc[id(r.a) + 1];
        ++rc[id(r.b) + 1];
    }
    races_begin_.assign(n + 1, 0);
    for (std::uint32_t v = 0; v < n; ++v)
        races_begin_[v + 1] = races_begin_[v] + rc[v + 1];
    races_.resize(races_begin_[n]);
    std::vector<std::uint32_t> rfill(races_begin_.begin(), races_begin_.end() - 1);
    for (const Race& r : result.races) {
        races_[rfill[id(r.a)]++] = r.id;
        races_[rfill[id(r.b)]++] = r.id;
    }
    stamp_.assign(n, 0);
    next_.resize(n);
}

std::optional<OrderedAfter> OrderingChains::of(std::uint32_t race) const {
    if (race >= result_.races.size()) return std::nullopt;
    const Race& y = result_.races[race];
    if (result_.partitions[y.partition].first) return std::nullopt;
    if (++search_ == 0) { // stamps wrapped around: start afresh
        std::fill(stamp_.begin(), stamp_.end(), 0);
        search_ = 1;
    }
    std::deque<std::uint32_t> queue;
    for (const EventRef& e : {y.a, y.b}) {
        const std::uint32_t v = id(e);
        if (stamp_[v] == search_) continue;
        stamp_[v] = search_;
        next_[v] = {kNone, OrderingVia::Start};
        queue.push_back(v);
    }
    std::uint32_t visits = 0;
    while (!queue.empty() && visits++ < kVisitBudget) {
        const std::uint32_t u = queue.front();
        queue.pop_front();
        auto reach = [&](std::uint32_t w, OrderingVia via) -> std::optional<OrderedAfter> {
            // w reaches u by one edge, hence an event of y by a non-empty path.
            for (std::uint32_t i = races_begin_[w]; i < races_begin_[w + 1]; ++i) {
                const Race& x = result_.races[races_[i]];
                if (x.partition == y.partition) continue;
                OrderedAfter out;
                out.race = x.id;
                out.chain.push_back({ref_[w], OrderingVia::Start});
                // Walk forward along the path, keeping the ends of process-order runs.
                std::uint32_t at = u;
                OrderingVia into = via;
                while (at != kNone) {
                    const auto [succ, succ_via] = next_[at];
                    const bool last = succ == kNone;
                    if (into != OrderingVia::ProgramOrder || last ||
                        succ_via != OrderingVia::ProgramOrder) {
                        // Reached through a run of process order: the run's start was kept
                        // (or is the start), so the step says "program order".
                        out.chain.push_back({ref_[at], into});
                    }
                    if (last) break;
                    // Along a run of process order the step after keeps saying so.
                    into = succ_via;
                    at = succ;
                }
                return out;
            }
            if (stamp_[w] != search_) {
                stamp_[w] = search_;
                next_[w] = {u, via};
                queue.push_back(w);
            }
            return std::nullopt;
        };
        const EventRef& ue = ref_[u];
        if (ue.index > 0)
            if (auto found = reach(u - 1, OrderingVia::ProgramOrder)) return found;
        for (std::uint32_t i = in_begin_[u]; i < in_begin_[u + 1]; ++i)
            if (auto found = reach(in_[i].first, in_[i].second)) return found;
    }
    return std::nullopt;
}

} // namespace firstrace
