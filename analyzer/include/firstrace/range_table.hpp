// Trace::ranges: the byte ranges of all access sites, 8 bytes a range instead of an
// Interval's 16 (DESIGN-NOTES "Compact sites and ranges").
//
// A range is one word: its start in the low 48 bits and its length in the high 16. Recorded
// addresses are user-space (below 2^47 on x86-64) and almost all ranges are a few bytes to a
// page, so nearly every range fits; any other interval (a length of 2^16 - 1 bytes or more, a
// start at or above 2^48 such as the OpenMP relocation spaces, hi < lo) is kept whole in a side
// array and the word holds kWide in the length bits and its index there. Every interval reads
// back exactly as it was stored.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <utility>
#include <vector>

#include "firstrace/interval.hpp"
#include "firstrace/mapped_array.hpp"

namespace firstrace {

// `Words` is the array of encoded words: a MappedArray<std::uint64_t> for the model, which the
// reader fills and moves to it (mapped_array.hpp); ChunkedArray<std::uint64_t> for the
// apparent-race sweep's pieces.
template <class Words> class BasicRangeTable {
  public:
    static constexpr unsigned kStartBits = 48;
    static constexpr std::uint64_t kStartMask = (std::uint64_t{1} << kStartBits) - 1;
    static constexpr std::uint64_t kWide = 0xffff; // length bits of a word that indexes wide_

    BasicRangeTable() = default;
    BasicRangeTable(std::initializer_list<Interval> ranges) {
        for (const Interval& range : ranges)
            push_back(range);
    }

    std::size_t size() const { return words_.size(); }
    bool empty() const { return words_.size() == 0; }
    Interval operator[](std::size_t r) const {
        const std::uint64_t word = words_[r];
        const std::uint64_t start = word & kStartMask;
        const std::uint64_t length = word >> kStartBits;
        if (length != kWide) [[likely]]
            return {start, start + length};
        return wide_[start];
    }
    Interval back() const { return (*this)[size() - 1]; }
    // Iteration by value, for range-for loops over all ranges.
    class Iterator {
      public:
        Iterator(const BasicRangeTable& table, std::size_t r) : table_(&table), r_(r) {}
        Interval operator*() const { return (*table_)[r_]; }
        Iterator& operator++() {
            ++r_;
            return *this;
        }
        friend bool operator==(const Iterator&, const Iterator&) = default;

      private:
        const BasicRangeTable* table_;
        std::size_t r_;
    };
    Iterator begin() const { return {*this, 0}; }
    Iterator end() const { return {*this, size()}; }
    void push_back(const Interval& range) { words_.push_back(encode(range)); }
    // Replaces range r (a wide interval it held stays unused in the side array).
    void set(std::size_t r, const Interval& range) { words_[r] = encode(range); }
    // Keeps the first n ranges (n <= size()). The wide intervals of the dropped ones leave the
    // side array when they are its last entries (each entry belongs to one word).
    void truncate(std::size_t n) {
        std::size_t dropped_wide = 0, lowest = wide_.size();
        for (std::size_t r = n; r < words_.size(); ++r)
            if ((words_[r] >> kStartBits) == kWide) {
                ++dropped_wide;
                lowest = std::min<std::size_t>(lowest, words_[r] & kStartMask);
            }
        if constexpr (requires { words_.truncate(n); })
            words_.truncate(n);
        else
            words_.resize(n);
        if (lowest + dropped_wide == wide_.size()) wide_.resize(lowest);
    }
    void reserve(std::size_t n) { words_.reserve(n); }
    void clear() {
        truncate(0);
        std::vector<Interval>().swap(wide_);
    }
    void shrink_to_fit() {
        words_.shrink_to_fit();
        wide_.shrink_to_fit();
    }
    // How many intervals did not fit a word (for the reading benchmark and tests).
    std::size_t wide_count() const { return wide_.size(); }
    std::size_t bytes() const {
        return words_.size() * sizeof(std::uint64_t) + wide_.size() * sizeof(Interval);
    }

    // Appends every range to `out`, which must be empty, leaving this table empty (moved when
    // both store their words alike, else copied: ChunkedArray::move_to).
    template <class Out> void move_to(BasicRangeTable<Out>& out) {
        out.clear();
        if constexpr (std::is_same_v<Words, Out>) {
            out.words_ = std::move(words_);
            words_ = Words();
        } else {
            words_.move_to(out.words_);
        }
        out.wide_ = std::move(wide_);
        wide_.clear();
    }

    // For a pass that rewrites the table in place (the reader's compact_ranges): the ranges
    // [from, from + n) to [to, to + n), as memmove does (the source may overlap the
    // destination); an interval kept in the side array keeps its entry there.
    void move_within(std::size_t from, std::size_t n, std::size_t to) {
        if (to < from)
            for (std::size_t k = 0; k < n; ++k)
                words_[to + k] = words_[from + k];
        else if (to > from)
            for (std::size_t k = n; k-- > 0;)
                words_[to + k] = words_[from + k];
    }
    // Range r as stored (an interval of the side array by its index there), and stored again
    // elsewhere by set_stored: what move_within copies, through a buffer.
    std::uint64_t stored(std::size_t r) const { return words_[r]; }
    void set_stored(std::size_t r, std::uint64_t word) { words_[r] = word; }
    // Keeps the first n ranges and the whole side array (after move_within a dropped range
    // can be a copy of a kept one: drop_unused_wide cleans up).
    void truncate_stored(std::size_t n) {
        if constexpr (requires { words_.truncate(n); })
            words_.truncate(n);
        else
            words_.resize(n);
    }
    // Drops the side array's entries no range holds any more (set and move_within leave the
    // replaced ones), when they are more than a quarter of it: the entries kept are renumbered
    // in the order of their ranges.
    void drop_unused_wide() {
        std::size_t used = 0;
        for (std::size_t r = 0; r < words_.size(); ++r)
            used += (words_[r] >> kStartBits) == kWide;
        if (4 * (wide_.size() - used) <= wide_.size()) return;
        std::vector<Interval> kept;
        kept.reserve(used);
        for (std::size_t r = 0; r < words_.size(); ++r)
            if ((words_[r] >> kStartBits) == kWide) {
                kept.push_back(wide_[words_[r] & kStartMask]);
                words_[r] = (kWide << kStartBits) | (kept.size() - 1);
            }
        wide_ = std::move(kept);
    }

    friend bool operator==(const BasicRangeTable& a, const BasicRangeTable& b) {
        if (a.size() != b.size()) return false;
        for (std::size_t r = 0; r < a.size(); ++r)
            if (!(a[r] == b[r])) return false;
        return true;
    }

  private:
    template <class> friend class BasicRangeTable;

    std::uint64_t encode(const Interval& range) {
        if (range.lo <= kStartMask && range.hi >= range.lo && range.hi - range.lo < kWide)
            return ((range.hi - range.lo) << kStartBits) | range.lo;
        wide_.push_back(range);
        return (kWide << kStartBits) | (wide_.size() - 1);
    }

    Words words_;
    std::vector<Interval> wide_;
};

using RangeTable = BasicRangeTable<MappedArray<std::uint64_t>>;

} // namespace firstrace
