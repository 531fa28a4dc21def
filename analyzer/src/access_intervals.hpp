// The bytes one event accesses, as disjoint maximal intervals of uniform access bits: what the
// conflict rule (conflict_rule.hpp) needs of an event, since a race is a pair of events, not of
// sites (Def 4.4: READ(e) and WRITE(e) are sets of addresses). Used by the apparent-race sweep
// (apparent_races.cpp) and by the per-race recomputation of the racing bytes
// (race_accesses.cpp), so that both see the same intervals.
//
// Real programs touch memory in no order (issue 11, DESIGN-NOTES "Real programs from Debian"):
// a compressor's event has thousands of ranges of a few bytes per site and its sites read the
// same bytes again (zstd -T4: 5.9·10^6 ranges, 6.4·10^5 such intervals).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "conflict_rule.hpp"
#include "firstrace/model.hpp"

namespace firstrace {

// Bytes [lo, hi) accessed with the SegmentAccess bits `access`.
struct AccessPiece {
    std::uint64_t lo = 0, hi = 0;
    std::uint8_t access = 0;
};

// Calls emit(lo, hi, access) for the bytes of `pieces` (anything with members lo, hi and access,
// sorted by lo) as disjoint ascending intervals, each with the OR of the access bits of the
// pieces covering it, maximal: adjacent intervals differ in their bits. One pass: per access
// bit, where the union of the pieces seen so far with that bit ends; the bits change only at
// a piece's start or at such an end.
template <class Pieces, class Emit>
void for_each_uniform_interval(const Pieces& pieces, Emit emit) {
    constexpr int kBits = 4; // SegmentAccess
    std::uint64_t end[kBits] = {0, 0, 0, 0};
    std::uint64_t pos = 0;
    std::uint64_t open_lo = 0, open_hi = 0; // the interval not yet emitted (joined while equal)
    std::uint8_t open_access = 0;
    auto put = [&](std::uint64_t lo, std::uint64_t hi, std::uint8_t access) {
        if (open_access == access && open_hi == lo) {
            open_hi = hi;
            return;
        }
        if (open_access != 0) emit(open_lo, open_hi, open_access);
        open_lo = lo;
        open_hi = hi;
        open_access = access;
    };
    // Emits from pos up to `target` (no piece starts before it).
    auto advance = [&](std::uint64_t target) {
        while (pos < target) {
            std::uint8_t bits = 0;
            std::uint64_t next = target;
            for (int b = 0; b < kBits; ++b)
                if (end[b] > pos) {
                    bits |= std::uint8_t(1u << b);
                    next = std::min(next, end[b]);
                }
            if (bits == 0) {
                pos = target;
                return;
            }
            put(pos, next, bits);
            pos = next;
        }
    };
    bool first = true;
    std::uint64_t last = 0; // the largest end seen
    for (const auto& p : pieces) {
        if (p.lo >= p.hi || p.access == 0) continue;
        if (first) {
            pos = p.lo;
            first = false;
        }
        advance(p.lo);
        for (int b = 0; b < kBits; ++b)
            if (p.access & (1u << b)) end[b] = std::max(end[b], std::uint64_t(p.hi));
        last = std::max(last, std::uint64_t(p.hi));
    }
    if (!first) advance(last);
    if (open_access != 0) emit(open_lo, open_hi, open_access);
}

// One event's data accesses as uniform intervals (for_each_uniform_interval), reusing its
// buffers from event to event.
class EventAccessIntervals {
  public:
    // Calls emit(lo, hi, access) for event e's uniform intervals, ascending.
    template <class Emit> void for_each(const Trace& trace, const Event& e, Emit emit) {
        for_each(
            trace, e, [](std::uint64_t lo, std::uint64_t hi, auto&& keep) { keep(lo, hi); }, emit);
    }

    // The same, of the bytes `clip` keeps: clip(lo, hi, keep) calls keep(lo', hi') for the
    // kept parts of a range [lo, hi), ascending (shared_granules.hpp).
    template <class Clip, class Emit>
    void for_each(const Trace& trace, const Event& e, Clip&& clip, Emit emit) {
        pieces_.clear();
        runs_.clear();
        // A site's ranges are sorted (the tracer keeps them so), so the event's pieces are
        // ascending runs, merged pairwise (log(runs) linear passes) when they are few.
        trace.for_each_data_range(
            e, [&](std::uint32_t, const AccessSite& site, const Interval& range) {
                clip(range.lo, range.hi, [&](std::uint64_t lo, std::uint64_t hi) {
                    if (pieces_.empty() || lo < pieces_.back().lo) runs_.push_back(pieces_.size());
                    pieces_.push_back({lo, hi, segment_access(site.flags)});
                });
            });
        if (pieces_.empty()) return;
        if (runs_.size() > kMostRunsMerged)
            radix_sort();
        else
            sort_runs();
        for_each_uniform_interval(pieces_, emit);
    }

  private:
    // Past this many runs (log2 of it merge passes) a radix sort on the start address takes
    // fewer passes: an event's addresses span a few MB of one buffer (3 passes of 11 bits) or,
    // heap and stack together, 2^47 bytes (5 passes); lbzip2's events have 180-600 runs.
    static constexpr std::size_t kMostRunsMerged = 32;

    // Least significant digit first, 11 bits a pass, on lo minus the smallest lo: stable, and
    // only as many passes as the span of the addresses needs.
    void radix_sort() {
        constexpr unsigned kDigitBits = 11;
        constexpr std::size_t kBuckets = std::size_t(1) << kDigitBits;
        std::uint64_t min_lo = pieces_.front().lo, max_lo = min_lo;
        for (const AccessPiece& p : pieces_) {
            min_lo = std::min(min_lo, p.lo);
            max_lo = std::max(max_lo, p.lo);
        }
        const std::uint64_t span = max_lo - min_lo;
        merged_.resize(pieces_.size());
        for (unsigned shift = 0; shift < 64 && (span >> shift) != 0; shift += kDigitBits) {
            counts_.assign(kBuckets, 0);
            auto digit = [&](const AccessPiece& p) {
                return std::size_t(((p.lo - min_lo) >> shift) & (kBuckets - 1));
            };
            for (const AccessPiece& p : pieces_)
                ++counts_[digit(p)];
            std::size_t at = 0;
            for (std::size_t& c : counts_) {
                const std::size_t n = c;
                c = at;
                at += n;
            }
            for (const AccessPiece& p : pieces_)
                merged_[counts_[digit(p)]++] = p;
            pieces_.swap(merged_);
        }
    }

    void sort_runs() {
        const auto by_lo = [](const AccessPiece& x, const AccessPiece& y) { return x.lo < y.lo; };
        while (runs_.size() > 1) {
            merged_.resize(pieces_.size());
            next_runs_.clear();
            for (std::size_t r = 0; r < runs_.size(); r += 2) {
                const std::size_t first = runs_[r];
                const std::size_t middle = r + 1 < runs_.size() ? runs_[r + 1] : pieces_.size();
                const std::size_t last = r + 2 < runs_.size() ? runs_[r + 2] : pieces_.size();
                next_runs_.push_back(first);
                std::merge(pieces_.begin() + std::ptrdiff_t(first),
                           pieces_.begin() + std::ptrdiff_t(middle),
                           pieces_.begin() + std::ptrdiff_t(middle),
                           pieces_.begin() + std::ptrdiff_t(last),
                           merged_.begin() + std::ptrdiff_t(first), by_lo);
            }
            pieces_.swap(merged_);
            runs_.swap(next_runs_);
        }
    }

    std::vector<AccessPiece> pieces_, merged_;
    std::vector<std::size_t> runs_, next_runs_; // where each ascending run of pieces_ starts
    std::vector<std::size_t> counts_;           // radix_sort: per digit value
};

} // namespace firstrace
