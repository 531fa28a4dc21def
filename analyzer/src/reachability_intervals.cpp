#include "reachability_intervals.hpp"

#include <algorithm>

namespace firstrace {

std::optional<ReachableIntervals> ReachableIntervals::build(const NodeGraph& graph,
                                                            const Components& components,
                                                            std::uint64_t interval_budget) {
    ReachableIntervals out;
    out.comp_ = components.of;
    out.base_.resize(components.count);
    out.first_.assign(components.count + 1, 0);
    const ComponentMembers members(components);
    std::vector<std::uint32_t> successors;
    std::vector<Interval> merged;
    // Successors have smaller ids: their lists are final when c is reached.
    for (std::uint32_t c = 0; c < components.count; ++c) {
        out.first_[c] = static_cast<std::uint32_t>(out.lo_.size());
        successors.clear();
        for (std::uint32_t i = members.begin(c); i < members.begin(c + 1); ++i)
            graph.for_each_successor(members.node(i), [&](NodeId w) {
                if (components.of[w] != c) successors.push_back(components.of[w]);
            });
        std::sort(successors.begin(), successors.end());
        successors.erase(std::unique(successors.begin(), successors.end()), successors.end());
        // The largest successor is c - 1 and reaches all the others: extend its list.
        if (!successors.empty() && successors.back() + 1 == c &&
            std::all_of(successors.begin(), successors.end() - 1,
                        [&](std::uint32_t d) { return out.component_reaches(c - 1, d); })) {
            out.base_[c] = out.base_[c - 1];
            continue;
        }
        out.base_[c] = c;
        merged.clear();
        merged.push_back({c, c});
        for (std::uint32_t d : successors) {
            const std::uint32_t b = out.base_[d];
            for (std::uint32_t k = out.first_[b]; k < out.first_[b + 1]; ++k)
                merged.push_back({out.lo_[k], out.hi_[k]});
            if (b < d) merged.push_back({b + 1, d});
        }
        std::sort(merged.begin(), merged.end(),
                  [](const Interval& x, const Interval& y) { return x.lo < y.lo; });
        std::size_t kept = 0;
        for (const Interval& iv : merged) {
            if (kept > 0 && iv.lo <= merged[kept - 1].hi + 1)
                merged[kept - 1].hi = std::max(merged[kept - 1].hi, iv.hi);
            else
                merged[kept++] = iv;
        }
        if (out.lo_.size() + kept > interval_budget) return std::nullopt;
        for (std::size_t k = 0; k < kept; ++k) {
            out.lo_.push_back(merged[k].lo);
            out.hi_.push_back(merged[k].hi);
        }
    }
    out.first_[components.count] = static_cast<std::uint32_t>(out.lo_.size());
    out.lo_.shrink_to_fit();
    out.hi_.shrink_to_fit();
    return out;
}

bool ReachableIntervals::component_reaches(std::uint32_t from, std::uint32_t to) const {
    if (to > from) return false; // reached components have smaller ids
    const std::uint32_t b = base_[from];
    if (to > b) return true; // in [b + 1, from]
    const auto begin = hi_.begin() + first_[b], end = hi_.begin() + first_[b + 1];
    const auto it = std::lower_bound(begin, end, to); // the first interval ending at or after
    return it != end && lo_[static_cast<std::size_t>(it - hi_.begin())] <= to;
}

} // namespace firstrace
