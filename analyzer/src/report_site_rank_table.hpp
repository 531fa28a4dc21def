// The race sites of a trace with the minima that rank them (smallest race, smallest partition,
// in a first partition), keyed by their pair of end ids (issue 14). The folding of
// report_site_rank_folder.hpp reports a race site once per (node of a, folded node) pair on a
// shared segment: 3.4·10^8 times for 500 500 race sites on the random shape with 8 threads at
// 10^7 lines, of which 99.7 % change nothing; each was a cache miss into a table of the sites.
//
// A byte per end pair settles most of them without touching the site: once no later report can
// carry a smaller race (settle()), it holds the site's smallest partition (up to 126) and
// whether it is in a first partition, and a report whose partition is not smaller and that
// brings no first partition changes nothing. The bytes of 2·10^6 end pairs (2 048 ends) take
// 2 MiB, of 500 500 half a MiB: they stay in the cache where the sites (12 bytes each, plus the
// site number of each end pair) do not. With more ends than that, a hash map of the end pairs
// (FlatIdMap) and no bytes.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "firstrace/analysis_result.hpp"
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

class SiteRankTable {
  public:
    // A race site: its end ids (x <= y) and ranking minima.
    struct Site {
        std::uint32_t x = 0, y = 0;
        SiteRankKey key;
    };

    // End ids are below `ends`.
    explicit SiteRankTable(std::size_t ends) {
        if (ends <= kDenseEnds) {
            dense_ends_ = ends;
            const std::size_t pairs = ends * (ends + 1) / 2;
            site_of_pair_.assign(pairs, kNone);
            settled_.assign(pairs, kUnseen);
            floor_ends(std::vector<bool>(ends, true));
        }
    }

    // Only the end pairs of `ends` count for may_change (of these ends only): those of the
    // access nodes a fold joins, not the unknown end of a race without sites, which would keep
    // every end's floor unset. Before any add().
    void floor_ends(const std::vector<bool>& ends) {
        if (dense_ends_ == 0) return;
        floored_ = ends;
        floored_.resize(dense_ends_, false);
        const auto n =
            static_cast<std::uint32_t>(std::count(floored_.begin(), floored_.end(), true));
        // Every end pair unseen: no floor.
        pairs_at_.assign(dense_ends_ * kLevels, 0);
        floor_.assign(dense_ends_, kNoFloor);
        not_first_.assign(dense_ends_, 0);
        for (std::size_t e = 0; e < dense_ends_; ++e)
            if (floored_[e]) {
                pairs_at_[e * kLevels + kNoFloor] = n;
                not_first_[e] = n;
            }
    }

    // Race site {x, y} holds a race with key `key`. Inline: most additions are settled ones,
    // dropped after one byte is read.
    void add(std::uint32_t x, std::uint32_t y, const SiteRankKey& key) {
        if (x > y) std::swap(x, y);
        if (dense_ends_ > 0) {
            const std::size_t pair = pair_index(x, y);
            if (!drops(settled_[pair], key)) add_dense(x, y, pair, key);
        } else {
            add_sparse(x, y, key);
        }
    }
    // Whether add(x, y, key) is known to change nothing (by the settled byte).
    bool drops(std::uint32_t x, std::uint32_t y, const SiteRankKey& key) const {
        if (x > y) std::swap(x, y);
        return dense_ends_ > 0 && drops(settled_[pair_index(x, y)], key);
    }

    // No later add() carries a smaller race than every earlier one: the sites added since the
    // last call get their byte.
    void settle() {
        for (const Pending& p : pending_) {
            const Site& site = sites_[site_of_pair_[p.pair]];
            const SiteRankKey& key = site.key;
            // A partition the byte cannot hold reads as unseen: never skipped, pending again.
            const std::uint8_t now =
                key.first_partition < kUnsettledPartition
                    ? static_cast<std::uint8_t>(key.first_partition |
                                                (key.in_first_partition ? kInFirstBit : 0u))
                    : kUnseen;
            settled_[p.pair] = now;
            if (p.was != now && floored_[site.x] && floored_[site.y]) {
                move_level(site.x, p.was, now);
                if (site.y != site.x) move_level(site.y, p.was, now);
            }
        }
        pending_.clear();
    }

    // Whether a race with `key` can change a race site of end y whatever its other end x: false
    // when every end pair {x, y} is settled with a partition at most key's and, if key is in a
    // first partition, in one too (so its add() would drop it). A fold's join asks this once
    // per folded end instead of adding it with every end of a's nodes (random shape, 128
    // threads: 1000 ends, every end pair a race site, nearly every such add a no-op).
    bool may_change(std::uint32_t y, const SiteRankKey& key) const {
        return floor(y).may_change(key);
    }

    // What may_change asks of one end, and of several ends at once (the largest partition,
    // all in a first partition): may_change of a key for each of them.
    struct EndFloor {
        std::uint32_t partition = 0;
        bool in_first_partition = true;
        bool unset = false;
        bool may_change(const SiteRankKey& key) const {
            return unset || key.first_partition < partition ||
                   (key.in_first_partition && !in_first_partition);
        }
        void add(const EndFloor& f) {
            partition = std::max(partition, f.partition);
            in_first_partition &= f.in_first_partition;
            unset |= f.unset;
        }
    };
    EndFloor floor(std::uint32_t end) const {
        if (floor_.empty() || !floored_[end] || floor_[end] == kNoFloor) return {0, false, true};
        return {floor_[end], not_first_[end] == 0, false};
    }

    // The site of the end pair {x, y}, kNone when there is none.
    std::uint32_t find(std::uint32_t x, std::uint32_t y) const {
        if (x > y) std::swap(x, y);
        if (dense_ends_ > 0) return site_of_pair_[pair_index(x, y)];
        const std::uint32_t id = sparse_.find(std::uint64_t(x) << 32 | y);
        return id == FlatIdMap::kAbsent ? kNone : id;
    }

    std::size_t size() const { return sites_.size(); }
    const std::vector<Site>& sites() const { return sites_; }

  private:
    // Unchanged: no smaller race (settled), partition and first-partition flag not better.
    static bool drops(std::uint8_t settled, const SiteRankKey& key) {
        return (settled & kPartitionBits) != kUnsettledPartition &&
               key.first_partition >= (settled & kPartitionBits) &&
               (!key.in_first_partition || (settled & kInFirstBit));
    }

    [[gnu::noinline]] void add_dense(std::uint32_t x, std::uint32_t y, std::size_t pair,
                                     const SiteRankKey& key) {
        std::uint32_t& site = site_of_pair_[pair];
        if (site == kNone) {
            site = static_cast<std::uint32_t>(sites_.size());
            sites_.push_back({x, y, key});
        } else {
            sites_[site].key.fold(key);
        }
        if (settled_[pair] != kPending) {
            pending_.push_back({pair, settled_[pair]});
            settled_[pair] = kPending;
        }
    }
    [[gnu::noinline]] void add_sparse(std::uint32_t x, std::uint32_t y, const SiteRankKey& key) {
        const auto [id, inserted] =
            sparse_.try_emplace(std::uint64_t(x) << 32 | y, static_cast<std::uint32_t>(size()));
        if (inserted)
            sites_.push_back({x, y, key});
        else
            sites_[id].key.fold(key);
    }

    static constexpr std::size_t kDenseEnds = 2048;
    // A settled byte: the smallest partition (below kUnsettledPartition) | in a first partition.
    static constexpr std::uint8_t kPartitionBits = 0x7f, kInFirstBit = 0x80;
    static constexpr std::uint8_t kUnsettledPartition = 0x7f;
    static constexpr std::uint8_t kUnseen = 0xff;  // never skipped
    static constexpr std::uint8_t kPending = 0x7f; // never skipped; in pending_

    // Per end, its end pairs by the level of their settled byte (the partition, kNoFloor when
    // unseen, pending since never settled, or beyond the byte): a settled pair only moves to a
    // lower level, so the highest occupied one, the end's floor, is kept in O(1) amortized
    // steps per settled change (a scan down at most kLevels, when its level empties).
    static constexpr std::uint32_t kNoFloor = kUnsettledPartition;
    static constexpr std::size_t kLevels = kNoFloor + 1;
    static std::uint32_t level(std::uint8_t settled) {
        return settled == kUnseen ? kNoFloor : (settled & kPartitionBits);
    }
    static bool in_first(std::uint8_t settled) {
        return settled != kUnseen && (settled & kInFirstBit);
    }
    void move_level(std::uint32_t end, std::uint8_t was, std::uint8_t now) {
        std::uint32_t* at = pairs_at_.data() + std::size_t(end) * kLevels;
        const std::uint32_t from = level(was), to = level(now);
        --at[from];
        ++at[to];
        not_first_[end] += std::uint32_t(!in_first(now)) - std::uint32_t(!in_first(was));
        std::uint32_t& floor = floor_[end];
        if (to > floor) floor = to;
        while (floor > 0 && at[floor] == 0)
            --floor;
    }

    // The end pairs x <= y, row by row.
    static std::size_t pair_index(std::uint32_t x, std::uint32_t y) {
        return std::size_t(y) * (std::size_t(y) + 1) / 2 + x;
    }

    std::size_t dense_ends_ = 0; // > 0: the dense tables, else sparse_
    std::vector<std::uint32_t> site_of_pair_;
    std::vector<std::uint8_t> settled_;
    // An end pair added since the last settle(), and its settled byte then.
    struct Pending {
        std::size_t pair;
        std::uint8_t was;
    };
    std::vector<Pending> pending_;
    std::vector<bool> floored_;            // dense: per end, whether its pairs count
    std::vector<std::uint32_t> pairs_at_;  // dense: per end and level, its end pairs there
    std::vector<std::uint32_t> floor_;     // dense: per end, its highest occupied level
    std::vector<std::uint32_t> not_first_; // dense: per end, its pairs not settled in a first
                                           // partition
    FlatIdMap sparse_;
    std::vector<Site> sites_;
};

} // namespace firstrace
