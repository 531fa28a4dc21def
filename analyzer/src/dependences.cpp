#include "dependences.hpp"

#include <algorithm>
#include <deque>
#include <unordered_set>

namespace firstrace {

bool dependence_allowed(const TemporalGraph& g, Ordering ordering, EventId x, EventId y) {
    if (ordering == Ordering::Approximate) return true;
    return !(g.event(y).clock_finish < g.event(x).clock_start);
}

namespace {

class ChainSearch {
public:
    ChainSearch(const TemporalGraph& g, const EventOrder& order, Ordering ordering,
                std::uint64_t budget, const std::vector<std::uint32_t>& offsets,
                const std::vector<EventId>& targets)
        : g_(g), order_(order), ordering_(ordering), budget_(budget), offsets_(offsets),
          targets_(targets), in_path_(g.process_count(), false),
          best_(g.process_count(), Best{kNone, false}) {}

    // Edges from `orig`, appended to `direct` and `all`. Returns false when the budget ran out
    // and the conservative fallback was used.
    bool run(EventId orig, std::vector<DependenceEdge>& direct, std::vector<DependenceEdge>& all) {
        touched_.clear();
        steps_ = 0;
        exhausted_ = false;
        for (std::uint32_t i = offsets_[orig]; i < offsets_[orig + 1]; ++i) {
            const EventId y = targets_[i];
            const std::uint32_t q = g_.event_process(y), j = g_.event_index(y);
            if (j < direct_min(q)) note_direct(q, j);
            record(y, false);
        }
        for (std::uint32_t q : touched_direct_) direct.push_back({orig, g_.event_id(q, direct_best_[q]), false});
        for (std::uint32_t q : touched_direct_) direct_best_[q] = kNone;
        touched_direct_.clear();

        path_.assign(1, orig);
        in_path_[g_.event_process(orig)] = true;
        extend(orig);
        in_path_[g_.event_process(orig)] = false;
        if (exhausted_) fallback(orig);
        for (std::uint32_t q : touched_) {
            all.push_back({orig, g_.event_id(q, best_[q].index), best_[q].transitive});
            best_[q] = Best{kNone, false};
        }
        return !exhausted_;
    }

private:
    struct Best {
        std::uint32_t index;
        bool transitive;
    };

    std::uint32_t direct_min(std::uint32_t q) {
        if (direct_best_.empty()) direct_best_.assign(g_.process_count(), kNone);
        return direct_best_[q];
    }
    void note_direct(std::uint32_t q, std::uint32_t j) {
        if (direct_best_[q] == kNone) touched_direct_.push_back(q);
        direct_best_[q] = j;
    }

    void record(EventId y, bool transitive) {
        const std::uint32_t q = g_.event_process(y), j = g_.event_index(y);
        Best& b = best_[q];
        if (b.index == kNone) touched_.push_back(q);
        if (j < b.index || b.index == kNone) b = Best{j, transitive};
    }

    void extend(EventId x) {
        for (std::uint32_t i = offsets_[x]; i < offsets_[x + 1]; ++i) {
            if (++steps_ > budget_) {
                exhausted_ = true;
                return;
            }
            const EventId y = targets_[i];
            const std::uint32_t q = g_.event_process(y);
            if (in_path_[q]) continue;
            bool unordered = true;
            // x and y race, so they are unordered; check the rest of the path.
            for (std::size_t k = 0; k + 1 < path_.size() && unordered; ++k)
                unordered = order_.unordered(path_[k], y);
            if (!unordered) continue;
            if (path_.size() >= 2 && dependence_allowed(g_, ordering_, path_.front(), y)) record(y, true);
            path_.push_back(y);
            in_path_[q] = true;
            extend(y);
            in_path_[q] = false;
            path_.pop_back();
            if (exhausted_) return;
        }
    }

    // Conservative superset once the exact search is too expensive: every event reachable from
    // orig by direct dependences through events unordered with orig.
    void fallback(EventId orig) {
        std::unordered_set<EventId> seen{orig};
        std::deque<EventId> queue{orig};
        while (!queue.empty()) {
            const EventId x = queue.front();
            queue.pop_front();
            for (std::uint32_t i = offsets_[x]; i < offsets_[x + 1]; ++i) {
                const EventId y = targets_[i];
                if (g_.event_process(y) == g_.event_process(orig) || !order_.unordered(orig, y)) continue;
                if (!seen.insert(y).second) continue;
                queue.push_back(y);
                if (dependence_allowed(g_, ordering_, orig, y)) record(y, true);
            }
        }
    }

    const TemporalGraph& g_;
    const EventOrder& order_;
    Ordering ordering_;
    std::uint64_t budget_;
    const std::vector<std::uint32_t>& offsets_;
    const std::vector<EventId>& targets_;
    std::vector<bool> in_path_;
    std::vector<EventId> path_;
    std::vector<Best> best_;
    std::vector<std::uint32_t> touched_;
    std::vector<std::uint32_t> direct_best_;
    std::vector<std::uint32_t> touched_direct_;
    std::uint64_t steps_ = 0;
    bool exhausted_ = false;
};

}  // namespace

Dependences compute_dependences(const TemporalGraph& g, const EventOrder& order,
                                const std::vector<ApparentRace>& races, DependenceKind kind,
                                Ordering ordering, std::uint64_t budget,
                                const ProgressCallback& progress) {
    // Direct dependences as adjacency lists (CSR), targets sorted by event id.
    std::vector<Edge> pairs;
    for (const ApparentRace& r : races) {
        const bool ab = kind == DependenceKind::SharedData || r.a_writes_b_reads;
        const bool ba = kind == DependenceKind::SharedData || r.b_writes_a_reads;
        if (ab && dependence_allowed(g, ordering, r.a, r.b)) pairs.emplace_back(r.a, r.b);
        if (ba && dependence_allowed(g, ordering, r.b, r.a)) pairs.emplace_back(r.b, r.a);
    }
    std::sort(pairs.begin(), pairs.end());
    std::vector<std::uint32_t> offsets(g.event_count() + 1, 0);
    std::vector<EventId> targets(pairs.size());
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        ++offsets[pairs[i].first + 1];
        targets[i] = pairs[i].second;
    }
    for (std::uint32_t e = 0; e < g.event_count(); ++e) offsets[e + 1] += offsets[e];

    Dependences deps;
    ChainSearch search(g, order, ordering, budget, offsets, targets);
    const char* stage = kind == DependenceKind::SharedData ? "shared-data dependences"
                                                             : "event-control dependences";
    for (EventId e = 0; e < g.event_count(); ++e) {
        if (offsets[e] == offsets[e + 1]) continue;
        if (progress && (e & 0x3fff) == 0) progress(stage, double(e) / double(g.event_count()));
        if (!search.run(e, deps.direct, deps.all)) deps.budget_exceeded = true;
    }
    if (progress) progress(stage, 1.0);
    return deps;
}

}  // namespace firstrace
