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
        }
    }

    // Race site {x, y} holds a race with key `key`. Inline: most additions are settled ones,
    // dropped after one byte is read.
    void add(std::uint32_t x, std::uint32_t y, const SiteRankKey& key) {
        if (x > y) std::swap(x, y);
        if (dense_ends_ > 0) {
            const std::size_t pair = pair_index(x, y);
            const std::uint8_t settled = settled_[pair];
            // Unchanged: no smaller race (settled), partition and first-partition flag not
            // better.
            if ((settled & kPartitionBits) != kUnsettledPartition &&
                key.first_partition >= (settled & kPartitionBits) &&
                (!key.in_first_partition || (settled & kInFirstBit)))
                return;
            add_dense(x, y, pair, key);
        } else {
            add_sparse(x, y, key);
        }
    }

    // No later add() carries a smaller race than every earlier one: the sites added since the
    // last call get their byte.
    void settle() {
        for (std::size_t pair : pending_) {
            const SiteRankKey& key = sites_[site_of_pair_[pair]].key;
            // A partition the byte cannot hold reads as unseen: never skipped, pending again.
            settled_[pair] =
                key.first_partition < kUnsettledPartition
                    ? static_cast<std::uint8_t>(key.first_partition |
                                                (key.in_first_partition ? kInFirstBit : 0u))
                    : kUnseen;
        }
        pending_.clear();
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
            settled_[pair] = kPending;
            pending_.push_back(pair);
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

    // The end pairs x <= y, row by row.
    static std::size_t pair_index(std::uint32_t x, std::uint32_t y) {
        return std::size_t(y) * (std::size_t(y) + 1) / 2 + x;
    }

    std::size_t dense_ends_ = 0; // > 0: the dense tables, else sparse_
    std::vector<std::uint32_t> site_of_pair_;
    std::vector<std::uint8_t> settled_;
    std::vector<std::size_t> pending_; // end pairs added since the last settle()
    FlatIdMap sparse_;
    std::vector<Site> sites_;
};

} // namespace firstrace
