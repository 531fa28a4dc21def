// The bytes where the apparent-race sweep can find a conflict, over-approximated by granules
// (DESIGN-NOTES "Analysis memory on xz -T4"): a byte can only hold one when events of two
// timestamp slots touch it and one of them writes (the sweep's live segments,
// apparent_races.cpp). Real programs' threads mostly work on memory of their own (xz -T4: 3.3·10^8
// ranges, 7.8·10^7 uniform intervals, 2.4·10^7 segments, of which 3 289 live): a first pass over
// the ranges marks, per granule of 2^bits bytes, which slot touched it (one, or several) and
// whether any wrote it, and the sweep then takes of each event's ranges only their parts inside
// the kept granules: the granules touched by two slots or more, one access writing.
//
// Exact for the sweep: the kept bytes contain every live byte, so a live byte's covering ranges
// are all kept there, and an end point inside a run of live bytes belongs to a range that
// reaches into it, kept whole up to there; the live segments, their incidences and so the races
// are the same, only dead segments disappear (tests: DenseGroupSweep.*, with granules of one
// byte, of eight, and none).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "firstrace/interval.hpp"
#include "flat_id_map.hpp"
#include "galloping_search.hpp"

namespace firstrace {

class SharedGranules {
  public:
    // No filter: every byte kept.
    static constexpr std::uint32_t kOff = 64;
    // A range over more granules than this, or more granules than kMostGranules in all, and
    // everything is kept (the map would cost more than the sweep it spares).
    static constexpr std::uint64_t kMostGranulesPerRange = std::uint64_t(1) << 20;
    static constexpr std::size_t kMostGranules = std::size_t(1) << 26;

    explicit SharedGranules(std::uint32_t bits) : bits_(bits), keep_all_(bits >= kOff) {}

    // Notes that slot `slot` (below 2^30) touches [lo, hi), writing if `writes`. A slot's
    // ranges come one after the other (any order of slots).
    void touch(std::uint32_t slot, std::uint64_t lo, std::uint64_t hi, bool writes) {
        if (keep_all_ || lo >= hi) return;
        const std::uint64_t first = lo >> bits_, last = (hi - 1) >> bits_;
        if (last - first >= kMostGranulesPerRange || slot >= kMany) {
            give_up();
            return;
        }
        const std::uint32_t mine = slot | (writes ? kWritten : 0);
        for (std::uint64_t gr = first; gr <= last; ++gr) {
            // the same granule as the range before, already noted so: nothing to do
            if (gr == last_granule_ && last_slot_ == slot) {
                if (last_writes_ || !writes) continue;
            } else {
                last_writes_ = false;
            }
            const auto [state, inserted] = granules_.try_emplace(gr, mine);
            if (!inserted) {
                std::uint32_t next = state | (writes ? kWritten : 0);
                if ((state & kMany) == 0 && (state & kSlotBits) != slot)
                    next = (next & kWritten) | kMany;
                if (next != state) granules_.assign(gr, next);
            }
            last_granule_ = gr;
            last_slot_ = slot;
            last_writes_ = last_writes_ || writes;
            if (granules_.size() > kMostGranules) {
                give_up();
                return;
            }
        }
    }

    // After the last touch: the kept granules as ascending disjoint byte intervals.
    void finish() {
        if (keep_all_) return;
        std::vector<std::uint64_t> kept;
        granules_.for_each([&](std::uint64_t gr, std::uint32_t state) {
            if ((state & kMany) && (state & kWritten)) kept.push_back(gr);
        });
        granules_.clear();
        std::sort(kept.begin(), kept.end());
        const std::uint64_t last_granule = ~std::uint64_t(0) >> bits_;
        for (const std::uint64_t gr : kept) {
            const std::uint64_t lo = gr << bits_;
            const std::uint64_t hi = gr == last_granule ? ~std::uint64_t(0) : (gr + 1) << bits_;
            if (!kept_.empty() && kept_.back().hi == lo)
                kept_.back().hi = hi;
            else
                kept_.push_back({lo, hi});
        }
    }

    bool keeps_all() const { return keep_all_; }
    // The kept bytes, ascending and disjoint (after finish(), when not keeps_all()).
    const std::vector<Interval>& kept() const { return kept_; }

    // Calls f(lo, hi) for the parts of [lo, hi) among the kept bytes, ascending. Successive
    // calls on nearby ranges cost a comparison or two (a cursor, galloping from it).
    template <class F> void clip(std::uint64_t lo, std::uint64_t hi, F&& f) {
        if (keep_all_) {
            f(lo, hi);
            return;
        }
        const auto n = static_cast<std::uint32_t>(kept_.size());
        std::uint32_t i = cursor_;
        // first kept interval ending after lo
        if (i > 0 && kept_[i - 1].hi > lo) i = 0;
        i = first_false(i, n, [&](std::uint32_t j) { return kept_[j].hi <= lo; });
        cursor_ = i;
        for (; i < n && kept_[i].lo < hi; ++i)
            f(std::max(lo, kept_[i].lo), std::min(hi, kept_[i].hi));
    }

  private:
    static constexpr std::uint32_t kWritten = 0x80000000u;
    static constexpr std::uint32_t kMany = 0x40000000u;
    static constexpr std::uint32_t kSlotBits = kMany - 1;

    void give_up() {
        keep_all_ = true;
        granules_.clear();
    }

    std::uint32_t bits_;
    bool keep_all_;
    FlatIdMap granules_; // granule -> slot | kMany, | kWritten
    std::uint64_t last_granule_ = ~std::uint64_t(0);
    std::uint32_t last_slot_ = kMany;
    bool last_writes_ = false;
    std::vector<Interval> kept_;
    std::uint32_t cursor_ = 0;
};

} // namespace firstrace
