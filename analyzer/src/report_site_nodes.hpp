// Which race sites exist, and the smallest race and partition of each, without one step per
// (race, race site) (issue 14): dense traces have hundreds of race sites per race (one hot
// variable, 10^5 lines: 9.9·10^6 races, 2.3·10^9 (race, race site) memberships, 5 050 race
// sites), so the text report's ranking of every race site must not enumerate them race by race.
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
// write/atomic class) — share the segment s with compatible classes. The smallest race,
// smallest partition and "in a first partition" of a race site are minima over its races, so
// a race may be counted any number of times: for a block of races with the same event a, fold
// each race's key into every node of its b (one step per (race, access node)), then join a's
// nodes with the folded ones segment by segment (one step per (event, node, folded node)).
// Races between processes of one OS thread take the per-instance path.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "firstrace/analysis_result.hpp"
#include "firstrace/model.hpp"
#include "flat_id_map.hpp"

namespace firstrace {

// The minima a race site's ranking needs, over the races it holds.
struct SiteRankKey {
    std::uint32_t smallest_race = kNone;
    std::uint32_t first_partition = kNone;
    bool in_first_partition = false;
    void fold(const SiteRankKey& k) {
        smallest_race = std::min(smallest_race, k.smallest_race);
        first_partition = std::min(first_partition, k.first_partition);
        in_first_partition |= k.in_first_partition;
    }
};

// The access nodes of every event: (end, segment, class) triples of its data sites, where end
// is a caller-supplied id per access site (the headline (file, line)).
class SiteNodeIndex {
  public:
    // Nodes of the events with racing[p][i] set (the others have none); end_of_site[s]: the end
    // of each of their access sites. Returns an index without nodes (usable() false) when the
    // segments of their ranges would cost more than `budget` node entries (ranges covering many
    // small ones, e.g. a memset over an array accessed element by element): the caller then
    // takes the per-instance path throughout.
    SiteNodeIndex(const Trace& trace, const std::vector<std::vector<bool>>& racing,
                  const std::vector<std::uint32_t>& end_of_site, std::size_t budget)
        : trace_(trace) {
        std::vector<std::uint64_t> bounds;
        for (std::size_t p = 0; p < trace.processes.size(); ++p)
            for (std::size_t i = 0; i < trace.processes[p].events.size(); ++i)
                if (racing[p][i])
                    trace.for_each_data_range(
                        trace.processes[p].events[i],
                        [&](std::uint32_t, const AccessSite&, const Interval& range) {
                            bounds.push_back(range.lo);
                            bounds.push_back(range.hi);
                        });
        std::sort(bounds.begin(), bounds.end());
        bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
        segments_ = bounds.empty() ? 0 : bounds.size() - 1;
        auto segment = [&](std::uint64_t x) {
            return static_cast<std::uint32_t>(std::lower_bound(bounds.begin(), bounds.end(), x) -
                                              bounds.begin());
        };
        // Per event, its nodes: (segment, end, class) packed in a word, sorted (so by segment)
        // and distinct, then interned (FlatIdMap: one probe per entry, no sort of all of them).
        std::vector<std::uint64_t> packed;
        FlatIdMap ids;
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
                    usable_ = false;
                    return;
                }
                for (std::uint64_t k : packed) {
                    const auto [id, inserted] =
                        ids.try_emplace(k, static_cast<std::uint32_t>(node_end_.size()));
                    if (inserted) node_end_.push_back(static_cast<std::uint32_t>(k) >> 2);
                    event_nodes_.push_back(
                        {static_cast<std::uint32_t>(k >> 32), id << 2 | std::uint32_t(k & 3u)});
                }
                if (node_end_.size() >= (1u << 30)) {
                    usable_ = false;
                    return;
                }
            }
        }
        event_first_.push_back(event_nodes_.size());
        usable_ = true;
    }

    bool usable() const { return usable_; }

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

    // A node of an event with its segment and class inline: the folds read an event's nodes in
    // sequence and look a node up only when it lies on a segment of the other event (a lookup
    // per node read was a cache miss each, most of the time on long events).
    struct NodeRef {
        std::uint32_t segment;
        std::uint32_t tagged; // node id << 2 | class
        std::uint32_t node() const { return tagged >> 2; }
        std::uint32_t cls() const { return tagged & 3u; }
    };
    // The nodes of an event, by segment.
    std::pair<const NodeRef*, const NodeRef*> nodes(const EventRef& e) const {
        const std::size_t k = event_base_[e.process] + e.index;
        return {event_nodes_.data() + event_first_[k], event_nodes_.data() + event_first_[k + 1]};
    }
    std::uint32_t end(std::uint32_t node) const { return node_end_[node]; }
    std::size_t node_count() const { return node_end_.size(); }
    std::size_t segment_count() const { return segments_; }

    // Whether race ⟨a, b⟩ (static_instances) has any race site instance: a merge of the two
    // node lists by segment, stopping at the first compatible pair.
    bool has_instance(const EventRef& a, const EventRef& b) const {
        auto [x, x_end] = nodes(a);
        auto [y, y_end] = nodes(b);
        while (x != x_end && y != y_end) {
            const std::uint32_t sx = x->segment, sy = y->segment;
            if (sx < sy) {
                ++x;
            } else if (sy < sx) {
                ++y;
            } else {
                const NodeRef* xs = x;
                const NodeRef* ys = y;
                while (x != x_end && x->segment == sx)
                    ++x;
                while (y != y_end && y->segment == sx)
                    ++y;
                for (const NodeRef* i = xs; i != x; ++i)
                    for (const NodeRef* j = ys; j != y; ++j)
                        if (compatible(i->cls(), j->cls())) return true;
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
    std::vector<NodeRef> event_nodes_;      // per event, by segment
    std::vector<std::uint32_t> node_end_;
};

// Folds race keys into the nodes of the races' b events for one event a at a time, then calls
// f(end of a's node, end of the folded node, key) for every compatible pair on a segment: the
// race sites of those races, each with the minima of its races among them (a race site may be
// reported several times; the keys are minima, so that is harmless). Only nodes of b on a
// segment of a are folded (the others join nothing), bucketed by that segment: no sorting.
class SiteRankFolder {
  public:
    explicit SiteRankFolder(const SiteNodeIndex& index)
        : index_(index), key_(index.node_count()), stamp_(index.node_count(), 0),
          segment_stamp_(index.segment_count(), 0), segment_bucket_(index.segment_count(), 0) {}

    // Starts the block of races whose event a is `a`.
    void begin(const EventRef& a) {
        if (++block_ == 0) { // wrapped: clear the stamps
            std::fill(stamp_.begin(), stamp_.end(), 0);
            std::fill(segment_stamp_.begin(), segment_stamp_.end(), 0);
            block_ = 1;
        }
        a_ = a;
        buckets_used_ = 0;
        auto [x, x_end] = index_.nodes(a);
        for (; x != x_end; ++x) {
            const std::uint32_t s = x->segment;
            if (segment_stamp_[s] == block_) continue;
            segment_stamp_[s] = block_;
            segment_bucket_[s] = buckets_used_;
            if (buckets_used_ == buckets_.size()) buckets_.emplace_back();
            buckets_[buckets_used_++].clear();
        }
    }

    // Race ⟨a, b⟩ of the current block has key `key`.
    void fold(const EventRef& b, const SiteRankKey& key) {
        auto [y, y_end] = index_.nodes(b);
        for (; y != y_end; ++y) {
            const std::uint32_t s = y->segment;
            if (segment_stamp_[s] != block_) continue;
            const std::uint32_t n = y->node();
            if (stamp_[n] != block_) {
                stamp_[n] = block_;
                key_[n] = key;
                buckets_[segment_bucket_[s]].push_back(y->tagged);
            } else {
                key_[n].fold(key);
            }
        }
    }

    // Joins a's nodes with the nodes folded in the current block.
    template <class F> void join(F&& f) {
        auto [x, x_end] = index_.nodes(a_);
        for (; x != x_end; ++x) {
            const std::uint32_t cx = x->cls(), ex = index_.end(x->node());
            for (std::uint32_t y : buckets_[segment_bucket_[x->segment]])
                if (SiteNodeIndex::compatible(cx, y & 3u)) f(ex, index_.end(y >> 2), key_[y >> 2]);
        }
    }

  private:
    const SiteNodeIndex& index_;
    std::vector<SiteRankKey> key_;
    std::vector<std::uint32_t> stamp_; // per node: the block that folded it
    std::vector<std::uint32_t> segment_stamp_, segment_bucket_; // per segment: a's, its bucket
    std::uint32_t block_ = 0;
    EventRef a_{};
    std::vector<std::vector<std::uint32_t>> buckets_; // per segment of a: folded NodeRef::tagged
    std::size_t buckets_used_ = 0;
};

} // namespace firstrace
