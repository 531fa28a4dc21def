// The scattered bytes of one access site (rt_site_table.hpp): 64-byte granules of the address
// space, each with a mask of the bytes accessed in it, in an open-addressing hash table.
//
// Why: a block sort or a compressor's hash table (lbzip2, zstd, xz) touches memory in no order
// and comes back to the same places, so a site collects 10^4-10^5 small disjoint ranges per
// event. Keeping them sorted costs a move or a sort per range (lbzip2 compress: 57 % of its
// traced run in std::sort of the site's ranges); here an access is one probe and an OR,
// whether it is new or a repeat, and the granules are sorted once, when the event is written.
// Exact: a mask bit per byte, nothing is ever rounded to the granule.
//
// Freestanding like the site table (no allocation of its own: slots come from the caller's
// arena; std::sort allocates nothing).
#pragma once

#include <algorithm>
#include <cstdint>

namespace frt {

struct Granule {
    std::uint64_t key;  // address / 64 + 1; 0: an empty slot
    std::uint64_t mask; // bit b: the byte at (key - 1) * 64 + b was accessed
};

class GranuleSet {
  public:
    static constexpr unsigned kShift = 6; // 64-byte granules
    static constexpr std::uint32_t kInitialSlots = 64;

    void reset() {
        slots_ = nullptr;
        cap_ = 0;
        used_ = 0;
        sorted_ = false;
    }

    std::uint32_t size() const { return used_; }

    // How many granules [lo, hi) spans (hi > lo).
    static std::uint64_t span(std::uint64_t lo, std::uint64_t hi) {
        return ((hi - 1) >> kShift) - (lo >> kShift) + 1;
    }

    // Adds the bytes [lo, hi) (hi > lo). False when the arena has no room: nothing changed.
    template <class Arena> bool add(std::uint64_t lo, std::uint64_t hi, Arena& arena) {
        const std::uint64_t first = lo >> kShift, last = (hi - 1) >> kShift;
        if (!reserve(last - first + 1, arena)) return false;
        for (std::uint64_t g = first; g <= last; ++g) {
            const unsigned from = g == first ? static_cast<unsigned>(lo & 63) : 0;
            const unsigned to = g == last ? static_cast<unsigned>((hi - 1) & 63) + 1 : 64;
            const std::uint64_t bits = to - from == 64
                                           ? ~std::uint64_t{0}
                                           : ((std::uint64_t{1} << (to - from)) - 1) << from;
            slot(g + 1).mask |= bits;
        }
        return true;
    }

    // The granules in ascending order, slots()[0, size()); the table is a hash again at the
    // next add. Const: the bytes held do not change, only how they are kept.
    const Granule* sorted() const {
        if (!sorted_) {
            std::uint32_t w = 0;
            for (std::uint32_t i = 0; i < cap_; ++i)
                if (slots_[i].key != 0) slots_[w++] = slots_[i];
            std::sort(slots_, slots_ + w,
                      [](const Granule& x, const Granule& y) { return x.key < y.key; });
            sorted_ = true;
        }
        return slots_;
    }

    // The end of the highest byte held (size() != 0).
    std::uint64_t top() const {
        const Granule& g = sorted()[used_ - 1];
        return ((g.key - 1) << kShift) + 64 - static_cast<unsigned>(__builtin_clzll(g.mask));
    }

  private:
    // Blocks of kBlock neighbouring granules share a hashed place and keep their order in it:
    // a program that touches nearby bytes touches nearby slots (one cache line of the table
    // rather than one per granule).
    static constexpr unsigned kBlockBits = 3;
    static std::uint32_t home(std::uint64_t key, std::uint32_t cap) {
        const unsigned bits = static_cast<unsigned>(__builtin_ctz(cap)) - kBlockBits;
        const auto block = static_cast<std::uint32_t>(
            ((key >> kBlockBits) * 0x9E3779B97F4A7C15ull) >> (64 - bits));
        return block << kBlockBits | static_cast<std::uint32_t>(key & ((1u << kBlockBits) - 1));
    }

    // The slot of `key`, claimed when new (reserve made room).
    Granule& slot(std::uint64_t key) {
        for (std::uint32_t i = home(key, cap_);; i = (i + 1) & (cap_ - 1)) {
            Granule& s = slots_[i];
            if (s.key == key) return s;
            if (s.key == 0) {
                s = Granule{key, 0};
                ++used_;
                return s;
            }
        }
    }

    // Room for `extra` more granules at a load of at most 1/2 (and the table a hash again
    // after sorted()). A new table comes from the arena; the old one is not reused (the arena
    // only grows within an event).
    template <class Arena> bool reserve(std::uint64_t extra, Arena& arena) {
        const std::uint64_t need = used_ + extra;
        if (!sorted_ && need <= cap_ / 2) return true;
        std::uint64_t cap = cap_ != 0 ? cap_ : kInitialSlots;
        while (need > cap / 2)
            cap *= 2;
        if (cap > (std::uint64_t{1} << 31)) return false;
        Granule* bigger = arena.template take<Granule>(static_cast<std::uint32_t>(cap));
        if (bigger == nullptr) return false;
        for (std::uint32_t i = 0; i < cap; ++i)
            bigger[i] = Granule{0, 0};
        Granule* old = slots_;
        const std::uint32_t old_cap = sorted_ ? used_ : cap_; // sorted: used_ slots, packed
        slots_ = bigger;
        cap_ = static_cast<std::uint32_t>(cap);
        used_ = 0;
        sorted_ = false;
        for (std::uint32_t i = 0; i < old_cap; ++i)
            if (old[i].key != 0) slot(old[i].key).mask = old[i].mask;
        return true;
    }

    Granule* slots_;
    std::uint32_t cap_; // slots, a power of two (0: none yet)
    std::uint32_t used_;
    mutable bool sorted_; // slots_[0, used_) sorted by key: not a hash table until rebuilt
};

// The ranges of sorted granules, ascending: each maximal stretch of set bits of a mask is one
// range (stretches that touch across a granule border come as two; the caller joins them).
class GranuleRanges {
  public:
    GranuleRanges(const Granule* begin, const Granule* end) : next_(begin), end_(end) { advance(); }
    bool valid() const { return valid_; }
    std::uint64_t lo() const { return lo_; }
    std::uint64_t hi() const { return hi_; }
    void advance() {
        while (mask_ == 0) {
            if (next_ == end_) {
                valid_ = false;
                return;
            }
            base_ = (next_->key - 1) << GranuleSet::kShift;
            mask_ = next_->mask;
            ++next_;
        }
        const unsigned from = static_cast<unsigned>(__builtin_ctzll(mask_));
        const std::uint64_t above = ~(mask_ >> from); // zero bits from `from` on
        const unsigned len = above == 0 ? 64 - from : static_cast<unsigned>(__builtin_ctzll(above));
        lo_ = base_ + from;
        hi_ = lo_ + len;
        mask_ = from + len == 64 ? 0 : mask_ & (~std::uint64_t{0} << (from + len));
        valid_ = true;
    }

  private:
    const Granule* next_;
    const Granule* end_;
    std::uint64_t base_ = 0;
    std::uint64_t mask_ = 0;
    std::uint64_t lo_ = 0;
    std::uint64_t hi_ = 0;
    bool valid_ = false;
};

} // namespace frt
