// Lifetimes of reused memory (memory_lifetimes.hpp): the starts in clock order, painted over
// an interval map of the latest lifetime per byte as the events' clocks advance.
#include "memory_lifetimes.hpp"

#include <algorithm>

namespace firstrace {

MemoryLifetimes::MemoryLifetimes(std::vector<LifetimeStart> starts, std::uint64_t key_limit) {
    std::stable_sort(
        starts.begin(), starts.end(),
        [](const LifetimeStart& a, const LifetimeStart& b) { return a.clock < b.clock; });
    // Generations: the starts painted in clock order, each over the highest before it.
    for (const LifetimeStart& s : starts) {
        const std::uint64_t id = highest_id(s.range) + 1;
        if (id > key_limit) {
            left_out_.push_back(s);
            continue;
        }
        apply(s.range, id, s.clock);
        starts_.push_back(s);
        ids_.push_back(id);
    }
    present_.clear();
    std::vector<Interval> ranges;
    ranges.reserve(starts_.size());
    for (const LifetimeStart& s : starts_)
        if (s.range.lo < s.range.hi) ranges.push_back(s.range);
    std::sort(ranges.begin(), ranges.end(),
              [](const Interval& a, const Interval& b) { return a.lo < b.lo; });
    for (const Interval& r : ranges) {
        if (!covered_.empty() && r.lo <= covered_.back().hi)
            covered_.back().hi = std::max(covered_.back().hi, r.hi);
        else
            covered_.push_back(r);
    }
}

bool MemoryLifetimes::touches(const Interval& x) const {
    auto it = std::partition_point(covered_.begin(), covered_.end(),
                                   [&](const Interval& c) { return c.hi <= x.lo; });
    return it != covered_.end() && it->lo < x.hi;
}

void MemoryLifetimes::advance_to(std::uint64_t clock) {
    for (; applied_ < starts_.size() && starts_[applied_].clock < clock; ++applied_)
        apply(starts_[applied_].range, ids_[applied_], starts_[applied_].clock);
}

std::uint64_t MemoryLifetimes::highest_id(const Interval& range) const {
    std::uint64_t id = 0;
    auto it = present_.upper_bound(range.lo);
    if (it != present_.begin() && std::prev(it)->second.hi > range.lo) --it;
    for (; it != present_.end() && it->first < range.hi; ++it)
        id = std::max(id, it->second.id);
    return id;
}

// Splits the piece holding `address` inside it in two.
void MemoryLifetimes::cut_at(std::uint64_t address) {
    auto it = present_.upper_bound(address);
    if (it == present_.begin()) return;
    --it;
    if (it->first >= address || it->second.hi <= address) return;
    Piece tail = it->second;
    it->second.hi = address;
    present_.emplace_hint(std::next(it), address, tail);
}

// Paints [range) with lifetime id started at clock: each piece it covers keeps the id it had
// as the one replaced (0 where no start was before), the ones it cuts keep their rest.
void MemoryLifetimes::apply(const Interval& range, std::uint64_t id, std::uint64_t clock) {
    if (range.lo >= range.hi) return;
    cut_at(range.lo);
    cut_at(range.hi);
    std::uint64_t at = range.lo;
    auto it = present_.lower_bound(range.lo);
    while (at < range.hi) {
        if (it == present_.end() || it->first >= range.hi) { // a gap up to the end
            present_.emplace_hint(it, at, Piece{range.hi, id, 0, clock});
            break;
        }
        if (it->first > at) // a gap before this piece
            present_.emplace_hint(it, at, Piece{it->first, id, 0, clock});
        it->second = Piece{it->second.hi, id, it->second.id, clock};
        at = it->second.hi;
        ++it;
    }
}

} // namespace firstrace
