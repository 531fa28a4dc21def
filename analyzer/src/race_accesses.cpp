// The racing bytes and sites of one race from its two events' access sets (race_accesses.hpp).
// The apparent-race sweep (apparent_races.cpp) decides the same per elementary segment of all
// events' access intervals (access_intervals.hpp: the union of an event's sites); here the
// segments are those of the two events' ranges or intervals only, cut at the same
// private-storage borders, so each segment is racing, private to both or neither as a whole and
// the racing bytes, merged into maximal intervals, are the same.
#include "firstrace/race_accesses.hpp"

#include <algorithm>

#include "access_intervals.hpp"
#include "conflict_rule.hpp"

namespace firstrace {

const RaceAccesses& RaceAccessFinder::of_one_thread(const EventRef& a, const EventRef& b) {
    out_.conflicts.clear();
    out_.sites_a.clear();
    out_.sites_b.clear();
    pieces_.clear();
    bounds_.clear();
    for (const bool side_b : {false, true}) {
        const EventRef& ref = side_b ? b : a;
        const Event& e = trace_.processes[ref.process].events[ref.index];
        trace_.for_each_data_range(
            e, [&](std::uint32_t s, const AccessSite& site, const Interval& range) {
                pieces_.push_back({range.lo, range.hi, s, segment_access(site.flags), side_b});
                bounds_.push_back(range.lo);
                bounds_.push_back(range.hi);
            });
    }
    if (pieces_.empty()) return out_;
    // Bytes private to the OS thread both processes ran on are no conflict: cut the segments
    // at that storage's borders (Trace::private_to_both).
    const Process& pa = trace_.processes[a.process];
    const Process& pb = trace_.processes[b.process];
    const bool one_thread = pa.os_thread != kNone && pa.os_thread == pb.os_thread;
    if (one_thread) {
        const OsThread& t = trace_.os_threads[pa.os_thread];
        for (std::uint64_t x :
             {t.stack.lo, t.stack.hi, t.tls.lo, t.tls.hi, pa.private_below, pb.private_below})
            bounds_.push_back(x);
    }
    std::sort(bounds_.begin(), bounds_.end());
    bounds_.erase(std::unique(bounds_.begin(), bounds_.end()), bounds_.end());
    const std::size_t segments = bounds_.size() - 1;
    access_a_.assign(segments, 0);
    access_b_.assign(segments, 0);
    auto segment_of = [&](std::uint64_t address) {
        return static_cast<std::size_t>(std::lower_bound(bounds_.begin(), bounds_.end(), address) -
                                        bounds_.begin());
    };
    for (const Piece& p : pieces_) {
        std::vector<std::uint8_t>& access = p.side_b ? access_b_ : access_a_;
        for (std::size_t s = segment_of(p.lo), last = segment_of(p.hi); s < last; ++s)
            access[s] |= p.access;
    }
    for (std::size_t s = 0; s < segments; ++s) {
        if (!races_on(access_a_[s], access_b_[s])) continue;
        const Interval range{bounds_[s], bounds_[s + 1]};
        if (one_thread && trace_.private_to_both(a.process, b.process, range)) continue;
        if (!out_.conflicts.empty() && out_.conflicts.back().hi == range.lo)
            out_.conflicts.back().hi = range.hi;
        else
            out_.conflicts.push_back(range);
    }
    // The sites with a range overlapping a conflict: the first conflict ending after the
    // range's start is the only candidate (conflicts are disjoint and ascending).
    for (const Piece& p : pieces_) {
        auto c = std::partition_point(out_.conflicts.begin(), out_.conflicts.end(),
                                      [&](const Interval& x) { return x.hi <= p.lo; });
        if (c != out_.conflicts.end() && c->lo < p.hi)
            (p.side_b ? out_.sites_b : out_.sites_a).push_back(p.site);
    }
    for (std::vector<std::uint32_t>* sites : {&out_.sites_a, &out_.sites_b}) {
        std::sort(sites->begin(), sites->end());
        sites->erase(std::unique(sites->begin(), sites->end()), sites->end());
    }
    return out_;
}

const RaceAccessFinder::EventAccesses& RaceAccessFinder::accesses_of(const EventRef& e) {
    if (cache_.empty()) cache_.resize(kCacheSlots, EventAccesses{{kNone, kNone}, {}, {}, {}});
    EventAccesses& slot = cache_[(std::size_t(e.process) * 0x9e3779b1u + e.index) % kCacheSlots];
    if (slot.event == e) return slot;
    // Bounded memory: a cache of very long events is dropped as a whole.
    if (cached_pieces_ > (std::size_t(1) << 22)) {
        for (EventAccesses& c : cache_)
            c = EventAccesses{{kNone, kNone}, {}, {}, {}};
        cached_pieces_ = 0;
    }
    cached_pieces_ -= std::min(cached_pieces_, slot.pieces.size());
    slot.event = e;
    slot.pieces.clear();
    slot.ranges.clear();
    slot.access.clear();
    const Event& ev = trace_.processes[e.process].events[e.index];
    trace_.for_each_data_range(
        ev, [&](std::uint32_t s, const AccessSite& site, const Interval& range) {
            slot.pieces.push_back({range.lo, range.hi, s, segment_access(site.flags), false});
        });
    cached_pieces_ += slot.pieces.size();
    std::sort(slot.pieces.begin(), slot.pieces.end(),
              [](const Piece& x, const Piece& y) { return x.lo < y.lo; });
    for_each_uniform_interval(slot.pieces,
                              [&](std::uint64_t lo, std::uint64_t hi, std::uint8_t access) {
                                  slot.ranges.push_back({lo, hi});
                                  slot.access.push_back(access);
                              });
    return slot;
}

const RaceAccesses& RaceAccessFinder::of(const EventRef& a, const EventRef& b) {
    const Process& pa = trace_.processes[a.process];
    const Process& pb = trace_.processes[b.process];
    if (pa.os_thread != kNone && pa.os_thread == pb.os_thread) return of_one_thread(a, b);
    out_.conflicts.clear();
    out_.sites_a.clear();
    out_.sites_b.clear();
    const EventAccesses& ea = accesses_of(a);
    const EventAccesses& eb = accesses_of(b);
    // Looking b up may have taken a's slot or dropped the cache: then the per-pair path.
    if (&ea == &eb || !(ea.event == a)) return of_one_thread(a, b);
    // Racing bytes: the intersections of the two interval lists whose access bits race.
    for (std::size_t i = 0, j = 0; i < ea.ranges.size() && j < eb.ranges.size();) {
        const Interval& x = ea.ranges[i];
        const Interval& y = eb.ranges[j];
        const std::uint64_t lo = std::max(x.lo, y.lo), hi = std::min(x.hi, y.hi);
        if (lo < hi && races_on(ea.access[i], eb.access[j])) {
            if (!out_.conflicts.empty() && out_.conflicts.back().hi == lo)
                out_.conflicts.back().hi = hi;
            else
                out_.conflicts.push_back({lo, hi});
        }
        if (x.hi <= y.hi) ++i;
        if (y.hi <= x.hi) ++j;
    }
    // The sites with a range overlapping a conflict: pieces ascending by start, so the first
    // conflict ending after a piece's start only moves forward.
    for (const auto& [pieces, sites] :
         {std::pair{&ea.pieces, &out_.sites_a}, std::pair{&eb.pieces, &out_.sites_b}}) {
        std::size_t c = 0;
        for (const Piece& p : *pieces) {
            while (c < out_.conflicts.size() && out_.conflicts[c].hi <= p.lo)
                ++c;
            if (c < out_.conflicts.size() && out_.conflicts[c].lo < p.hi) sites->push_back(p.site);
        }
        std::sort(sites->begin(), sites->end());
        sites->erase(std::unique(sites->begin(), sites->end()), sites->end());
    }
    return out_;
}

RaceAccesses race_accesses(const Trace& trace, const Race& race) {
    RaceAccessFinder finder(trace);
    return finder.of(race);
}

} // namespace firstrace
