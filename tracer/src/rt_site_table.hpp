// The bytes one access site touched in the open computation event (its share of the event's
// READ or WRITE set, thesis ch. 3), kept as sorted disjoint ranges plus one open strided run.
//
// Why a run: compiled loops touch memory in arithmetic progressions, and a vectorised,
// interleaved loop gives each instruction a progression with gaps (clang -O2 on `a[i] = a[i] *
// 0.5 + b[i]`: four 16-byte accesses per instruction 64 bytes apart), which no range merging
// can join. The run records such a progression exactly -- accesses of `size` bytes at first,
// first + stride, ..., next - stride -- and the access path extends it with one compare
// (extend_run). Contiguous loops are the run with stride == size, repeats the run with stride 0.
// Anything else lands in the ranges (add). Nothing is ever approximated: the bytes written for
// a site are exactly the union of its accesses (tests/tracer/site_accesses_test.cpp checks this
// against a byte set).
//
// Scattered accesses (a compressor's hash table, a block sort: lbzip2, zstd, xz) land in the
// ranges in no order. Inserting each into the sorted array moved half of it (lbzip2: 122x its
// native time); appending them to an unsorted tail sorted in lazily still spent 57 % of the run
// in the sorts (43x). A range whose insertion would move more than kShiftLimit others now goes
// to the site's granule set (rt_granule_set.hpp: a hash of 64-byte granules with a byte mask,
// and a bitmap per densely touched 4 KiB page; one probe per access, repeats included), and once a
// site has granules every small range that does not extend the ranges upwards goes there directly,
// without a search. The granules are sorted and merged with the ranges and the run when the event
// is written (visit).
//
// Freestanding (no allocation of its own, no libc beyond memmove/memcpy; std::sort allocates
// nothing) so that the runtime and a unit test share it: ranges and granules come from the
// caller's arena (arena.take<T>(count): count T's, or nullptr when it is full).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "rt_granule_set.hpp"

namespace frt {

struct Range {
    std::uint64_t lo;
    std::uint64_t hi;
};

// A run seen as ranges: `count` ranges [lo + k * step, lo + k * step + size), ascending, with
// gaps between them (step > size) when count > 1.
struct RunRanges {
    std::uint64_t lo;
    std::uint64_t step;
    std::uint64_t size;
    std::uint64_t count; // 0: no run
};

class SiteAccesses {
  public:
    // Strides beyond this start a new run (an address difference that large is two objects,
    // not a loop; it also keeps the run arithmetic far from overflow).
    static constexpr std::int64_t kMaxStride = std::int64_t{1} << 32;
    // An insertion into the sorted ranges may move at most this many of them; beyond, a
    // small range goes to the granules.
    static constexpr std::uint32_t kShiftLimit = 64;
    // Ranges spanning at most this many granules (4 KiB) are small. A larger one is inserted
    // into the ranges wherever it falls: its granules would cost more arena than the move.
    static constexpr std::uint64_t kGranuleSpanLimit = 64;

    // Empty, with `cap` ranges of storage at r (cap >= 1).
    void reset(Range* r, std::uint32_t cap) {
        r_ = r;
        n_ = 0;
        cap_ = cap;
        last_ = 0;
        granules_.reset();
        run_size_ = 0;
        run_first_ = 0;
        run_next_ = 0;
        run_stride_ = 0;
    }

    // The access path: true when [addr, addr + size) is the next access of the open run.
    __attribute__((always_inline)) bool extend_run(std::uint64_t addr, std::uint64_t size) {
        if (addr != run_next_ || size != run_size_) return false;
        run_next_ += static_cast<std::uint64_t>(run_stride_);
        return true;
    }

    // The access path's second test: [addr, addr + size) lies inside an open contiguous
    // ascending run (a sliding window, a loop that reads back what it just read: x264's pixel
    // filters), so the site holds its bytes already.
    __attribute__((always_inline)) bool run_covers(std::uint64_t addr, std::uint64_t size) const {
        return run_stride_ == static_cast<std::int64_t>(run_size_) && addr >= run_first_ &&
               addr + size <= run_next_;
    }

    // Adds [addr, addr + size) (size > 0). False when the arena has no room: what the site
    // holds is still exactly the bytes it had before (some of the open run's may have been
    // copied into the ranges or granules; the run still holds them).
    template <class Arena> bool add(std::uint64_t addr, std::uint64_t size, Arena& arena) {
        if (size > 0xffffffffu) { // too big for a run: a range of its own
            return (run_size_ == 0 || flush_run(arena)) && insert(addr, addr + size, arena);
        }
        if (run_size_ != 0) {
            if (extend_run(addr, size)) return true;
            const std::uint64_t d = addr - run_first_;
            const auto sd = static_cast<std::int64_t>(d);
            // The run's second access fixes its stride (the first guessed a contiguous one).
            if (size == run_size_ &&
                run_next_ - run_first_ == static_cast<std::uint64_t>(run_stride_) &&
                run_stride_ == static_cast<std::int64_t>(size) && sd > -kMaxStride &&
                sd < kMaxStride) {
                run_stride_ = sd;
                run_next_ = addr + d;
                return true;
            }
            std::uint64_t lo, hi;
            if (run_extent(lo, hi) && addr >= lo && addr + size <= hi) return true;
            if (!flush_run(arena)) return false;
        }
        // inside the range touched last (a scattered site's ranges are not where it goes on)
        if (n_ != 0 && granules_.empty() && addr >= r_[last_].lo && addr + size <= r_[last_].hi)
            return true;
        run_size_ = static_cast<std::uint32_t>(size);
        run_first_ = addr;
        run_stride_ = static_cast<std::int64_t>(size);
        run_next_ = addr + size;
        return true;
    }

    // The open run's bytes [lo, hi) when they are one range (a single access, a repeat, a
    // contiguous or overlapping sweep): the test of every access that breaks a run, without
    // run()'s division.
    bool run_extent(std::uint64_t& lo, std::uint64_t& hi) const {
        const auto stride = static_cast<std::uint64_t>(run_stride_);
        const std::uint64_t step = run_stride_ < 0 ? 0 - stride : stride;
        if (run_next_ - run_first_ == stride || step <= run_size_) {
            // one access or a repeat, else an overlapping sweep (run_next_ - stride is the last
            // access)
            const std::uint64_t last = run_next_ - stride;
            lo = run_stride_ < 0 ? last : run_first_;
            hi = (run_stride_ < 0 ? run_first_ : last) + run_size_;
            return true;
        }
        return false;
    }

    // The open run as ranges.
    RunRanges run() const {
        if (run_size_ == 0) return {0, 0, 0, 0};
        if (run_stride_ == 0) return {run_first_, 0, run_size_, 1};
        // how many accesses: a scattered site's runs are of one or two (no division)
        const std::uint64_t span = run_next_ - run_first_;
        const auto stride = static_cast<std::uint64_t>(run_stride_);
        const std::int64_t count = span == stride ? 1
                                   : span == 2 * stride
                                       ? 2
                                       : static_cast<std::int64_t>(span) / run_stride_;
        const std::uint64_t step =
            static_cast<std::uint64_t>(run_stride_ < 0 ? -run_stride_ : run_stride_);
        const std::uint64_t lo =
            run_stride_ > 0 ? run_first_
                            : run_first_ + static_cast<std::uint64_t>((count - 1) * run_stride_);
        const auto c = static_cast<std::uint64_t>(count);
        if (step <= run_size_) return {lo, 0, (c - 1) * step + run_size_, 1}; // overlapping
        return {lo, step, run_size_, c};
    }

    // Visits the site's bytes as sorted, disjoint, non-adjacent ranges: f(lo, hi) per range,
    // then returns how many there were. No allocation: the ranges, the granules (sorted in
    // place) and the run are merged on the fly. A run wholly above the rest (the common case)
    // goes to tail(run, prev_hi) instead, which must visit its ranges itself (the caller writes
    // them as one repeated pattern); count includes them.
    template <class F, class Tail> std::uint64_t visit(F&& f, Tail&& tail) const {
        const RunRanges v = run();
        if (granules_.empty() && (v.count == 0 || n_ == 0 || r_[n_ - 1].hi < v.lo)) {
            for (std::uint32_t i = 0; i < n_; ++i)
                f(r_[i].lo, r_[i].hi);
            if (v.count != 0) tail(v, n_ != 0 ? r_[n_ - 1].hi : 0);
            return n_ + v.count;
        }
        // General case: merge the ascending lists, joining what overlaps or touches.
        std::uint64_t top = n_ != 0 ? r_[n_ - 1].hi : 0;
        if (!granules_.empty()) top = std::max(top, granules_.top());
        const bool run_above = v.count != 0 && top < v.lo;
        std::uint64_t emitted = 0, cur_lo = 0, cur_hi = 0;
        bool open = false;
        auto push = [&](std::uint64_t lo, std::uint64_t hi) {
            if (open && lo <= cur_hi) {
                if (hi > cur_hi) cur_hi = hi;
                return;
            }
            if (open) {
                f(cur_lo, cur_hi);
                ++emitted;
            }
            cur_lo = lo;
            cur_hi = hi;
            open = true;
        };
        GranuleRanges gr(granules_);
        std::uint32_t i = 0;
        std::uint64_t k = run_above ? v.count : 0;
        for (;;) {
            const std::uint64_t range_lo = i < n_ ? r_[i].lo : ~std::uint64_t{0};
            const std::uint64_t granule_lo = gr.valid() ? gr.lo() : ~std::uint64_t{0};
            const std::uint64_t run_lo = k < v.count ? v.lo + k * v.step : ~std::uint64_t{0};
            if (i < n_ && range_lo <= granule_lo && range_lo <= run_lo) {
                push(r_[i].lo, r_[i].hi);
                ++i;
            } else if (gr.valid() && granule_lo <= run_lo) {
                push(gr.lo(), gr.hi());
                gr.advance();
            } else if (k < v.count) {
                push(run_lo, run_lo + v.size);
                ++k;
            } else {
                break;
            }
        }
        if (open) {
            f(cur_lo, cur_hi);
            ++emitted;
        }
        if (run_above) {
            tail(v, cur_hi);
            emitted += v.count;
        }
        return emitted;
    }
    // How many ranges visit() visits.
    std::uint64_t range_count() const {
        auto none = [](std::uint64_t, std::uint64_t) {};
        return visit(none, [](const RunRanges&, std::uint64_t) {});
    }

    // Ranges stored (sorted, disjoint, non-adjacent), granules, and dense pages.
    std::uint32_t stored_ranges() const { return n_; }
    std::uint32_t stored_granules() const { return granules_.granules(); }
    std::uint32_t stored_dense_pages() const { return granules_.dense_pages(); }

  private:
    // Moves the open run into the ranges and granules. False when the arena is full: the run
    // stays open (what was moved already is held twice, which changes no byte).
    template <class Arena> bool flush_run(Arena& arena) {
        if (run_next_ - run_first_ == static_cast<std::uint64_t>(run_stride_)) { // one access
            if (!insert(run_first_, run_first_ + run_size_, arena)) return false;
            run_size_ = 0;
            return true;
        }
        std::uint64_t lo, hi;
        if (run_extent(lo, hi)) {
            if (!insert(lo, hi, arena)) return false;
        } else { // accesses with gaps between them, ascending (no division for the count)
            const auto stride = static_cast<std::uint64_t>(run_stride_);
            const std::uint64_t last = run_next_ - stride;
            const std::uint64_t step = run_stride_ < 0 ? 0 - stride : stride;
            const std::uint64_t top = run_stride_ < 0 ? run_first_ : last;
            for (std::uint64_t a = run_stride_ < 0 ? last : run_first_;; a += step) {
                if (!insert(a, a + run_size_, arena)) return false;
                if (a == top) break;
            }
        }
        run_size_ = 0;
        return true;
    }

    // Room for one more range.
    template <class Arena> bool reserve_range(Arena& arena) {
        if (n_ < cap_) return true;
        const std::uint64_t cap = std::uint64_t{cap_} * 2;
        if (cap > 0xffffffffu) return false;
        Range* bigger = arena.template take<Range>(static_cast<std::uint32_t>(cap));
        if (bigger == nullptr) return false;
        std::memcpy(bigger, r_, n_ * sizeof(Range));
        r_ = bigger;
        cap_ = static_cast<std::uint32_t>(cap);
        return true;
    }

    // Adds [lo, hi) to the sorted disjoint ranges, merging overlapping and adjacent ones, or,
    // when that would move many of them (or the site is scattered already), to the granules.
    // False (nothing changed) when the arena has room for neither.
    template <class Arena> bool insert(std::uint64_t lo, std::uint64_t hi, Arena& arena) {
        Range* r = r_;
        const std::uint32_t n = n_;
        const bool above = n == 0 || r[n - 1].hi < lo; // appending: the common case
        const bool small = GranuleSet::span(lo, hi) <= kGranuleSpanLimit;
        if (!above && small && !granules_.empty() && granules_.add(lo, hi, arena)) return true;
        // first index whose hi >= lo (candidates to merge start there)
        std::uint32_t a = 0, b = n;
        if (above)
            a = n;
        else if (r[last_].hi < lo)
            a = last_ + 1;
        while (a < b) {
            const std::uint32_t m = (a + b) / 2;
            if (r[m].hi < lo)
                a = m + 1;
            else
                b = m;
        }
        if (a < n && r[a].lo <= hi) { // overlaps or touches r[a]: merge forward
            if (lo < r[a].lo) r[a].lo = lo;
            if (hi > r[a].hi) r[a].hi = hi;
            std::uint32_t e = a + 1;
            while (e < n && r[e].lo <= r[a].hi) {
                if (r[e].hi > r[a].hi) r[a].hi = r[e].hi;
                ++e;
            }
            if (e != a + 1) {
                if (e < n) std::memmove(r + a + 1, r + e, (n - e) * sizeof(Range));
                n_ = n - (e - a - 1);
            }
            last_ = a;
            return true;
        }
        // (no room for the granules: the move, while the ranges have room)
        if (n - a > kShiftLimit && small && granules_.add(lo, hi, arena)) return true;
        if (!reserve_range(arena)) return false;
        r = r_;
        if (a < n) std::memmove(r + a + 1, r + a, (n - a) * sizeof(Range));
        r[a] = Range{lo, hi};
        n_ = n + 1;
        last_ = a;
        return true;
    }

    // the open run first: what the access path reads
    std::uint64_t run_next_; // where the run's next access would be
    std::int64_t run_stride_;
    std::uint32_t run_size_; // 0: no open run
    std::uint32_t n_;        // ranges used: sorted, disjoint, non-adjacent
    std::uint64_t run_first_;
    Range* r_;
    std::uint32_t cap_;  // ranges allocated
    std::uint32_t last_; // index of the range touched last (search hint)
    GranuleSet granules_;
};

} // namespace frt
