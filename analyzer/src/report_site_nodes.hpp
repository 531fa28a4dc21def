// Which race sites a race holds, without pairing its access sites (issue 14): dense traces have
// hundreds of race sites per race (one hot variable, 10^5 lines: 9.9·10^6 races, 2.3·10^9
// (race, race site) memberships, 5 050 race sites), so the text report's ranking of every race
// site must not enumerate them race by race.
//
// The instance relation is static outside storage private to both processes. A race site
// instance of race ⟨a, b⟩ is an access site i of a and j of b whose ranges share a byte inside
// the race's conflicting bytes, at least one writing and not both atomic
// (for_each_conflicting_site_pair). When the two processes ran on different OS threads (or the
// trace does not say), nothing is private to both (Trace::private_to_both), and a byte that i
// and j share under that flag rule is racing by the conflict rule (conflict_rule.hpp's races_on
// holds for any accesses that include i's and j's), so it lies in the race's conflicting bytes:
// (i, j) is an instance iff the flags allow it and the ranges share a byte, whatever the race.
//
// So a race site {x, y} has race r = ⟨a, b⟩ among its races iff some node (x, s, c) of a and
// (y, s, c') of b — an access site's (headline end, elementary segment of the trace's ranges,
// write/atomic class) — share the segment s with compatible classes. Each event's nodes are a
// list sorted by segment; two events' shared segments are found by a galloping merge, in steps
// of the shorter list times the logarithm of the ratio (random 8 threads, 10^7 lines: events of
// 10^4 nodes race with events of ten, and a plain merge took 1.1·10^10 steps where this takes
// about 10^8). Races between processes of one OS thread take the per-instance path.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "firstrace/analysis_result.hpp"
#include "firstrace/model.hpp"
#include "flat_id_map.hpp"

namespace firstrace {

// The access nodes of every event: (segment, end, class) triples of its data sites, where end
// is a caller-supplied id per access site (the headline (file, line)).
class SiteNodeIndex {
  public:
    // A node: its elementary segment and end << 2 | class.
    struct Node {
        std::uint32_t segment;
        std::uint32_t end_class;
        std::uint32_t end() const { return end_class >> 2; }
        std::uint32_t cls() const { return end_class & 3u; }
    };

    // Nodes of the events with racing[p][i] set (the others have none); end_of_site[s]: the end
    // of each of their access sites. Returns an index without nodes (usable() false) when the
    // segments of their ranges would cost more than `budget` node entries (ranges covering many
    // small ones, e.g. a memset over an array accessed element by element): the caller then
    // takes the per-instance path throughout.
    SiteNodeIndex(const Trace& trace, const std::vector<std::vector<bool>>& racing,
                  const std::vector<std::uint32_t>& end_of_site, std::size_t budget)
        : trace_(trace) {
        // The elementary segments: between the distinct bounds of the racing events' ranges,
        // interned as they come (a hash probe per bound: the random shape at 10^7 lines has
        // 8.9·10^6 ranges on 10^3 distinct bounds), then numbered in order.
        std::vector<std::uint64_t> bounds;
        FlatIdMap segment_of;
        auto for_each_racing_range = [&](auto&& f) {
            for (std::size_t p = 0; p < trace.processes.size(); ++p)
                for (std::size_t i = 0; i < trace.processes[p].events.size(); ++i)
                    if (racing[p][i]) trace.for_each_data_range(trace.processes[p].events[i], f);
        };
        for_each_racing_range([&](std::uint32_t, const AccessSite&, const Interval& range) {
            for (std::uint64_t x : {range.lo, range.hi})
                if (segment_of.try_emplace(x, 0).second) bounds.push_back(x);
        });
        if (bounds.size() >= FlatIdMap::kAbsent) return; // segment ids are 32 bits
        std::sort(bounds.begin(), bounds.end());
        segments_ = bounds.size();
        for (std::size_t k = 0; k < bounds.size(); ++k)
            segment_of.assign(bounds[k], static_cast<std::uint32_t>(k));
        auto segment = [&](std::uint64_t x) { return segment_of.find(x); };
        // The node entries before deduplication bound those after: reserved at once, so that
        // the list is never copied while it grows (the pages past its end are never touched).
        std::size_t expanded = 0;
        for_each_racing_range([&](std::uint32_t, const AccessSite&, const Interval& range) {
            expanded += segment(range.hi) - segment(range.lo);
        });
        event_nodes_.reserve(std::min(expanded, budget + 1));
        // Per event, its nodes: (segment, end, class) packed in a word, sorted (so by segment)
        // and distinct.
        std::vector<std::uint64_t> packed;
        std::size_t events = 0;
        for (const Process& p : trace.processes)
            events += p.events.size();
        event_first_.reserve(events + 1);
        for (std::size_t p = 0; p < trace.processes.size(); ++p) {
            event_base_.push_back(static_cast<std::uint32_t>(event_first_.size()));
            for (std::size_t i = 0; i < trace.processes[p].events.size(); ++i) {
                event_first_.push_back(event_nodes_.size());
                if (!racing[p][i]) continue;
                const Event& e = trace.processes[p].events[i];
                packed.clear();
                bool fits = true;
                trace.for_each_data_range(
                    e, [&](std::uint32_t s, const AccessSite& site, const Interval& range) {
                        fits &= end_of_site[s] < (1u << 30);
                        const std::uint64_t low =
                            std::uint64_t(end_of_site[s]) << 2 | site_class(site.flags);
                        for (std::uint32_t g = segment(range.lo), last = segment(range.hi);
                             g < last; ++g)
                            packed.push_back(std::uint64_t(g) << 32 | low);
                    });
                std::sort(packed.begin(), packed.end());
                packed.erase(std::unique(packed.begin(), packed.end()), packed.end());
                if (!fits || event_nodes_.size() + packed.size() > budget) {
                    event_nodes_ = {};
                    event_first_ = {};
                    return;
                }
                for (std::uint64_t k : packed)
                    event_nodes_.push_back(
                        {static_cast<std::uint32_t>(k >> 32), static_cast<std::uint32_t>(k)});
            }
        }
        event_first_.push_back(event_nodes_.size());
        usable_ = true;
    }

    bool usable() const { return usable_; }
    // Segment ids are below this.
    std::size_t segments() const { return segments_; }

    // Whether the static instance relation holds for this race's processes: not one OS thread
    // (whose private storage RaceAccessFinder cuts out).
    bool static_instances(const Race& race) const {
        const Process& pa = trace_.processes[race.a.process];
        const Process& pb = trace_.processes[race.b.process];
        return usable_ && !(pa.os_thread != kNone && pa.os_thread == pb.os_thread);
    }

    // The class of a data site: bit 0 writes, bit 1 atomic.
    static std::uint32_t site_class(std::uint8_t flags) {
        return ((flags & kAccessWrite) ? 1u : 0u) | ((flags & kAccessAtomic) ? 2u : 0u);
    }
    // At least one writes, not both atomic (for_each_conflicting_site_pair's rule).
    static bool compatible(std::uint32_t c, std::uint32_t d) {
        return ((c | d) & 1u) && !((c & d) & 2u);
    }

    // The nodes of an event, by segment.
    std::pair<const Node*, const Node*> nodes(const EventRef& e) const {
        const std::size_t k = event_base_[e.process] + e.index;
        return {event_nodes_.data() + event_first_[k], event_nodes_.data() + event_first_[k + 1]};
    }
    // Every event's nodes are within [node_data(), node_data() + node_count()).
    const Node* node_data() const { return event_nodes_.data(); }
    std::size_t node_count() const { return event_nodes_.size(); }

    // Whether race ⟨a, b⟩ (static_instances) has any race site instance: the first compatible
    // pair of nodes on a shared segment.
    bool has_instance(const EventRef& a, const EventRef& b) const {
        auto [x, x_end] = nodes(a);
        auto [y, y_end] = nodes(b);
        return for_each_shared_segment(
            x, x_end, y, y_end, [](const Node* xs, const Node* xe, const Node* ys, const Node* ye) {
                for (const Node* i = xs; i != xe; ++i)
                    for (const Node* j = ys; j != ye; ++j)
                        if (compatible(i->cls(), j->cls())) return true;
                return false;
            });
    }

    // The first element of [it, end), a list sorted by segment, whose segment is at least s:
    // up to 8 steps one by one (lists of similar lengths advance by one or two), then steps of
    // 1, 2, 4, ... and a binary search, so O(log d) for a distance d.
    template <class T> static const T* skip_to(const T* it, const T* end, std::uint32_t s) {
        for (int k = 0; k < 8; ++k, ++it)
            if (it == end || it->segment >= s) return it;
        std::size_t step = 1;
        const T* below = it - 1; // below->segment < s
        for (;;) {
            if (std::size_t(end - below) <= step) {
                return std::partition_point(below + 1, end,
                                            [s](const T& n) { return n.segment < s; });
            }
            const T* probe = below + step;
            if (probe->segment >= s)
                return std::partition_point(below + 1, probe,
                                            [s](const T& n) { return n.segment < s; });
            below = probe;
            step *= 2;
        }
    }

    // Calls f(x first, x last, y first, y last) for the runs of the two lists (sorted by
    // segment) on each segment both have, in segment order, until f returns true; returns
    // whether it did. A galloping merge: each list skips to the other's next segment.
    template <class X, class Y, class F>
    static bool for_each_shared_segment(const X* x, const X* x_end, const Y* y, const Y* y_end,
                                        F&& f) {
        while (x != x_end && y != y_end) {
            if (x->segment < y->segment) {
                x = skip_to(x, x_end, y->segment);
            } else if (y->segment < x->segment) {
                y = skip_to(y, y_end, x->segment);
            } else {
                const std::uint32_t s = x->segment;
                const X* xs = x;
                const Y* ys = y;
                while (x != x_end && x->segment == s)
                    ++x;
                while (y != y_end && y->segment == s)
                    ++y;
                if (f(xs, x, ys, y)) return true;
            }
        }
        return false;
    }

  private:
    const Trace& trace_;
    bool usable_ = false;
    std::size_t segments_ = 0;
    std::vector<std::uint32_t> event_base_; // per process: its first event's number
    std::vector<std::size_t> event_first_;  // per event number: first entry in event_nodes_
    std::vector<Node> event_nodes_;         // per event, by segment then end and class
};

} // namespace firstrace
