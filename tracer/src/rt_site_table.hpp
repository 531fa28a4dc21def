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
// ranges in no order. Inserting each into the sorted array moved half of it: with 10^5 ranges
// per site that was 83% of lbzip2's traced run time (122x its native time). Ranges that would
// have to move more than kShiftLimit others are appended to an unsorted tail instead, and the
// tail is sorted into the ranges when it is as long as the sorted part (or before the arena
// must grow): O(log n) amortized per range instead of O(n).
//
// Freestanding (no allocation of its own, no libc beyond memmove/memcpy; std::sort allocates
// nothing) so that the runtime and a unit test share it: ranges come from the caller's arena.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

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
    // An insertion into the sorted ranges may move at most this many of them; beyond, the
    // range goes to the unsorted tail.
    static constexpr std::uint32_t kShiftLimit = 64;
    // The tail is sorted in when it holds max(kMinTail, sorted ranges) ranges.
    static constexpr std::uint32_t kMinTail = 256;

    // Empty, with `cap` ranges of storage at r (cap >= 1).
    void reset(Range* r, std::uint32_t cap) {
        r_ = r;
        n_ = 0;
        sorted_ = 0;
        cap_ = cap;
        last_ = 0;
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

    // Adds [addr, addr + size) (size > 0). False when the arena has no room: nothing changed,
    // and what the site holds is still exactly what it had before.
    template <class Arena> bool add(std::uint64_t addr, std::uint64_t size, Arena& arena) {
        if (size > 0xffffffffu) { // too big for a run: a range of its own
            if ((run_size_ != 0 && !flush_run(arena)) || !reserve(1, arena)) return false;
            insert(addr, addr + size);
            return true;
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
            const RunRanges v = run();
            if (v.count == 1 && addr >= v.lo && addr + size <= v.lo + v.size) return true;
            if (!flush_run(arena)) return false;
        }
        if (n_ != 0 && addr >= r_[last_].lo && addr + size <= r_[last_].hi) return true;
        run_size_ = static_cast<std::uint32_t>(size);
        run_first_ = addr;
        run_stride_ = static_cast<std::int64_t>(size);
        run_next_ = addr + size;
        return true;
    }

    // The open run as ranges.
    RunRanges run() const {
        if (run_size_ == 0) return {0, 0, 0, 0};
        if (run_stride_ == 0) return {run_first_, 0, run_size_, 1};
        const std::int64_t count = static_cast<std::int64_t>(run_next_ - run_first_) / run_stride_;
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
    // then returns how many there were. No allocation: the ranges and the run are merged on
    // the fly. A run wholly above the ranges (the common case) goes to
    // tail(run, prev_hi) instead, which must visit its ranges itself (the caller writes them
    // as one repeated pattern); count includes them.
    template <class F, class Tail> std::uint64_t visit(F&& f, Tail&& tail) const {
        sort_tail();
        const RunRanges v = run();
        if (v.count == 0 || n_ == 0 || r_[n_ - 1].hi < v.lo) {
            for (std::uint32_t i = 0; i < n_; ++i)
                f(r_[i].lo, r_[i].hi);
            if (v.count != 0) tail(v, n_ != 0 ? r_[n_ - 1].hi : 0);
            return n_ + v.count;
        }
        // General case: merge the two ascending lists, joining what overlaps or touches.
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
        std::uint32_t i = 0;
        std::uint64_t k = 0;
        while (i < n_ || k < v.count) {
            const std::uint64_t run_lo = v.lo + k * v.step;
            if (k < v.count && (i == n_ || run_lo < r_[i].lo)) {
                push(run_lo, run_lo + v.size);
                ++k;
            } else {
                push(r_[i].lo, r_[i].hi);
                ++i;
            }
        }
        if (open) {
            f(cur_lo, cur_hi);
            ++emitted;
        }
        return emitted;
    }
    // How many ranges visit() visits.
    std::uint64_t range_count() const {
        auto none = [](std::uint64_t, std::uint64_t) {};
        return visit(none, [](const RunRanges&, std::uint64_t) {});
    }

    // Ranges stored, the unsorted tail included (its overlaps are merged when it is sorted in).
    std::uint32_t stored_ranges() const { return n_; }

  private:
    // Moves the open run into the ranges. False (nothing changed) when the arena is full.
    template <class Arena> bool flush_run(Arena& arena) {
        const RunRanges v = run();
        if (!reserve(v.count, arena)) return false;
        for (std::uint64_t k = 0; k < v.count; ++k)
            insert(v.lo + k * v.step, v.lo + k * v.step + v.size);
        run_size_ = 0;
        return true;
    }

    // Room for `extra` more ranges.
    template <class Arena> bool reserve(std::uint64_t extra, Arena& arena) {
        if (n_ + extra <= cap_) return true;
        sort_tail(); // merging the tail's overlaps may make the room
        if (n_ + extra <= cap_) return true;
        std::uint64_t cap = cap_ * 2;
        while (cap < n_ + extra)
            cap *= 2;
        if (cap > 0xffffffffu) return false;
        Range* bigger = arena.ranges(static_cast<std::uint32_t>(cap));
        if (bigger == nullptr) return false;
        std::memcpy(bigger, r_, n_ * sizeof(Range));
        r_ = bigger;
        cap_ = static_cast<std::uint32_t>(cap);
        return true;
    }

    // Inserts [lo, hi) into the sorted disjoint ranges, merging overlapping and adjacent ones;
    // there is room for one more range.
    void insert(std::uint64_t lo, std::uint64_t hi) {
        Range* r = r_;
        const std::uint32_t n = n_;
        if (sorted_ != n) { // a tail is open: the range joins it
            append_to_tail(lo, hi);
            return;
        }
        // first index whose hi >= lo (candidates to merge start there); appending is the
        // common case and needs no search
        std::uint32_t a = 0, b = n;
        if (n != 0 && r[n - 1].hi < lo)
            a = n;
        else if (n != 0 && r[last_].hi < lo)
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
                sorted_ = n_;
            }
            last_ = a;
            return;
        }
        if (n - a > kShiftLimit) { // would move many ranges: start the tail
            append_to_tail(lo, hi);
            return;
        }
        if (a < n) std::memmove(r + a + 1, r + a, (n - a) * sizeof(Range));
        r[a] = Range{lo, hi};
        n_ = n + 1;
        sorted_ = n_;
        last_ = a;
    }

    // Appends [lo, hi) to the unsorted tail (room for one more range) and sorts the tail in
    // once it is as long as the sorted part.
    void append_to_tail(std::uint64_t lo, std::uint64_t hi) {
        r_[n_] = Range{lo, hi};
        last_ = n_;
        ++n_;
        const std::uint32_t tail = n_ - sorted_;
        if (tail >= kMinTail && tail >= sorted_) sort_tail();
    }

    // Sorts the tail into the ranges, merging what overlaps or touches: afterwards every range
    // is sorted and disjoint again. Const: the bytes held do not change, only how they are kept.
    void sort_tail() const {
        if (sorted_ == n_) return;
        Range* r = r_;
        std::sort(r, r + n_, [](const Range& x, const Range& y) { return x.lo < y.lo; });
        std::uint32_t w = 0;
        for (std::uint32_t i = 0; i < n_; ++i) {
            if (w != 0 && r[i].lo <= r[w - 1].hi) {
                if (r[i].hi > r[w - 1].hi) r[w - 1].hi = r[i].hi;
            } else {
                r[w++] = r[i];
            }
        }
        n_ = w;
        sorted_ = w;
        last_ = 0;
    }

    // the open run first: what the access path reads
    std::uint64_t run_next_; // where the run's next access would be
    std::int64_t run_stride_;
    std::uint32_t run_size_;  // 0: no open run
    mutable std::uint32_t n_; // ranges used: sorted ones, then the unsorted tail
    std::uint64_t run_first_;
    Range* r_;
    std::uint32_t cap_;            // ranges allocated
    mutable std::uint32_t sorted_; // r_[0, sorted_) sorted and disjoint; the rest the tail
    mutable std::uint32_t last_;   // index of the range touched last (search hint)
};

} // namespace frt
