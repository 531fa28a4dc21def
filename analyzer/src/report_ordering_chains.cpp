#include "report_ordering_chains.hpp"

#include <algorithm>
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
    queued_.assign(n, 0);
    reached_.assign(n, 0);
    next_.resize(n);
}

std::optional<OrderedAfter> OrderingChains::of(std::uint32_t race) const {
    if (race >= result_.races.size()) return std::nullopt;
    const Race& y = result_.races[race];
    if (result_.partitions[y.partition].first) return std::nullopt;
    if (total_left_ == 0) return std::nullopt;
    std::uint32_t budget =
        static_cast<std::uint32_t>(std::min<std::uint64_t>(kVisitBudget, total_left_));
    const std::uint32_t start = budget;
    std::optional<OrderedAfter> found = search(y, id(y.a), budget);
    if (!found && y.b != y.a) found = search(y, id(y.b), budget);
    total_left_ -= start - budget;
    return found;
}

std::optional<OrderedAfter> OrderingChains::search(const Race& y, std::uint32_t target,
                                                   std::uint32_t& budget) const {
    if (++search_ == 0) { // stamps wrapped around: start afresh
        std::fill(queued_.begin(), queued_.end(), 0);
        std::fill(reached_.begin(), reached_.end(), 0);
        search_ = 1;
    }
    // The path from w to the target, keeping the ends of process-order runs.
    auto path = [&](std::uint32_t w, std::vector<OrderingStep>& out) {
        out.push_back({ref_[w], OrderingVia::Start});
        std::uint32_t at = w;
        while (at != target) {
            const auto [succ, via] = next_[at];
            const bool last = succ == target;
            const bool run_goes_on = via == OrderingVia::ProgramOrder && !last &&
                                     next_[succ].second == OrderingVia::ProgramOrder;
            if (!run_goes_on) out.push_back({ref_[succ], via});
            // Inside a run of process order the kept end says "program order" too.
            at = succ;
        }
    };
    std::deque<std::uint32_t> queue{target};
    queued_[target] = search_;
    reached_[target] = search_; // by the empty path: an event reaches itself in Ê* (Def 8.1)
    while (!queue.empty() && budget > 0) {
        --budget;
        const std::uint32_t u = queue.front();
        queue.pop_front();
        auto reach = [&](std::uint32_t w, OrderingVia via) -> std::optional<OrderedAfter> {
            // w reaches the target by a non-empty path through u.
            if (reached_[w] == search_) return std::nullopt;
            reached_[w] = search_;
            next_[w] = {u, via};
            // Each race looked at counts as a step: on dense traces an event takes part in
            // thousands of races, and the budget must bound the work, not only the events.
            const std::uint32_t scanned = races_begin_[w + 1] - races_begin_[w];
            budget -= std::min(budget, scanned);
            for (std::uint32_t i = races_begin_[w]; i < races_begin_[w + 1]; ++i) {
                const Race& x = result_.races[races_[i]];
                if (x.partition == y.partition) continue;
                const std::uint32_t other = id(x.a) == w ? id(x.b) : id(x.a);
                if (reached_[other] != search_) continue;
                // Both events of x reach an event of y: x R̂ y (Def 8.1).
                OrderedAfter out;
                out.race = x.id;
                path(id(x.a), out.chain);
                path(id(x.b), out.chain);
                return out;
            }
            if (queued_[w] != search_) {
                queued_[w] = search_;
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
