// The scattered bytes of one access site (rt_site_table.hpp): 64-byte granules of the address
// space, each with a mask of the bytes accessed in it, in a hash table; and, for the 4 KiB pages
// that hold many granules, a bitmap per page (one bit per byte) in a second, small hash table.
//
// Why granules: a block sort or a compressor's hash table (lbzip2, zstd, xz) touches memory in
// no order and comes back to the same places, so a site collects 10^4-10^5 small disjoint
// ranges per event. Keeping them sorted costs a move or a sort per range (lbzip2 compress: 57 %
// of its traced run in std::sort of the site's ranges); here an access is one probe and an OR,
// whether it is new or a repeat, and the granules are sorted once, when the event is written.
//
// Why dense pages: a site that sweeps a multi-megabyte array in no order (lbzip2's suffix
// array, 3.6 MB) fills a granule table of 2 MB (load 1/2): every probe a cache miss, the event's
// arena full after a few such sites (the event splits), and 10^5 granules sorted per event. A
// page's bitmap holds its 64 granules in 512 bytes (the granules took 1-2 KiB), in the order of
// the addresses (no sort), and the table of dense pages stays small (a 3.6 MB array is 900
// pages): an access to a dense page is a probe of that table and an OR into the bitmap. A page
// becomes dense when a new granule finds at least kDenseBlock of its 512-byte block's 8 granules
// held (KeyedWords::block_neighbours); that block's granules then move into the bitmap (the
// page's others stay where they are, and are joined with it when written). Sparse sites never
// have a dense page, and skip the page table (a 64-bit filter says which pages may be dense).
//
// Exact either way: a bit per byte, nothing is ever rounded to a granule or a page.
// Freestanding like the site table (no allocation of its own: slots and bitmaps come from the
// caller's arena).
#pragma once

#include <cstdint>

#include "rt_keyed_words.hpp"

namespace frt {

class GranuleSet {
  public:
    static constexpr unsigned kShift = 6;      // 64-byte granules
    static constexpr unsigned kPageShift = 12; // 4 KiB pages: 64 granules
    static constexpr unsigned kPageGranules = 1u << (kPageShift - kShift);
    // A new granule that finds this many of its block's granules (itself included) makes its
    // page dense: 4 granules in one block cost 128-256 bytes of the granule table; the whole
    // page's bitmap costs 512 (and the page usually fills: a block this dense is not alone).
    static constexpr unsigned kDenseBlock = 4;
    // Keys carry this bit so that granule and page 0 are not the empty key 0.
    static constexpr std::uint64_t kKeyBit = std::uint64_t{1} << 63;

    // First tables: 1 KiB of granules; 256 bytes of dense pages (most sites have a few, and
    // the page table is probed on every access of a site that has one: it should stay in cache).
    static constexpr std::uint32_t kInitialGranuleSlots = 64;
    static constexpr std::uint32_t kInitialPageSlots = KeyedWords::kMinSlots;

    void reset() {
        granules_.reset(kInitialGranuleSlots);
        pages_.reset(kInitialPageSlots);
        dense_filter_ = 0;
    }

    bool empty() const { return granules_.size() == 0 && pages_.size() == 0; }
    std::uint32_t granules() const { return granules_.size(); }
    std::uint32_t dense_pages() const { return pages_.size(); }

    // How many granules [lo, hi) spans (hi > lo).
    static std::uint64_t span(std::uint64_t lo, std::uint64_t hi) {
        return ((hi - 1) >> kShift) - (lo >> kShift) + 1;
    }

    // Adds the bytes [lo, hi) (hi > lo). False when the arena has no room: nothing changed.
    template <class Arena> bool add(std::uint64_t lo, std::uint64_t hi, Arena& arena) {
        const std::uint64_t first = lo >> kShift, last = (hi - 1) >> kShift;
        if (first == last) { // the common case: one probe of the page table at most
            const std::uint64_t mask = byte_mask(lo, hi);
            if (std::uint64_t* bits = bitmap(first >> (kPageShift - kShift))) {
                bits[first & (kPageGranules - 1)] |= mask;
                return true;
            }
            if (!granules_.reserve(1, arena)) return false;
            add_granule(first, mask, arena);
            return true;
        }
        // granule slots needed: the granules outside dense pages
        std::uint64_t need = last - first + 1;
        if (dense_filter_ != 0) {
            need = 0;
            for (std::uint64_t g = first; g <= last; g = (g | (kPageGranules - 1)) + 1) {
                const std::uint64_t page_last = g | (kPageGranules - 1);
                if (bitmap(g >> (kPageShift - kShift)) == nullptr)
                    need += (page_last < last ? page_last : last) - g + 1;
                if (page_last >= last) break;
            }
        }
        if (need != 0 && !granules_.reserve(need, arena)) return false;
        std::uint64_t page = ~std::uint64_t{0};
        std::uint64_t* bits = nullptr;
        for (std::uint64_t g = first; g <= last; ++g) {
            const std::uint64_t mask =
                byte_mask(g == first ? lo : g << kShift, g == last ? hi : (g + 1) << kShift);
            if (g >> (kPageShift - kShift) != page) {
                page = g >> (kPageShift - kShift);
                bits = bitmap(page);
            }
            if (bits != nullptr)
                bits[g & (kPageGranules - 1)] |= mask;
            else
                bits = add_granule(g, mask, arena);
        }
        return true;
    }

    // The end of the highest byte held (!empty()).
    std::uint64_t top() const {
        std::uint64_t top = 0;
        if (granules_.size() != 0) {
            const KeyedWord& g = granules_.sorted()[granules_.size() - 1];
            top = word_top(g.key & ~kKeyBit, g.word);
        }
        if (pages_.size() != 0) {
            const KeyedWord& p = pages_.sorted()[pages_.size() - 1];
            const std::uint64_t* bits = page_bits(p);
            unsigned w = kPageGranules - 1;
            while (bits[w] == 0) // a dense page holds a byte
                --w;
            const std::uint64_t t =
                word_top(((p.key & ~kKeyBit) << (kPageShift - kShift)) + w, bits[w]);
            if (t > top) top = t;
        }
        return top;
    }

    // The bytes held, as ascending 64-byte words: granule number and nonzero byte mask. The
    // tables are sorted in place (a hash again at the next add).
    class Words {
      public:
        explicit Words(const GranuleSet& s)
            : g_(s.granules_.size() != 0 ? s.granules_.sorted() : nullptr),
              g_end_(g_ + s.granules_.size()),
              p_(s.pages_.size() != 0 ? s.pages_.sorted() : nullptr), p_end_(p_ + s.pages_.size()) {
            enter_page();
        }

        // The next word, false when there is none.
        bool next(std::uint64_t& granule, std::uint64_t& mask) {
            const std::uint64_t in_granules = g_ != g_end_ ? g_->key & ~kKeyBit : kNone;
            if (in_granules < in_page_) {
                granule = in_granules;
                mask = g_->word;
                ++g_;
                return true;
            }
            if (in_page_ == kNone) return false;
            granule = in_page_;
            mask = bits_[in_page_ - base_];
            if (in_granules == in_page_) { // held before its page became dense
                mask |= g_->word;
                ++g_;
            }
            occupied_ &= occupied_ - 1;
            if (occupied_ != 0) {
                in_page_ = base_ + static_cast<unsigned>(__builtin_ctzll(occupied_));
            } else {
                ++p_;
                enter_page();
            }
            return true;
        }

      private:
        static constexpr std::uint64_t kNone = ~std::uint64_t{0};

        // Takes the words of the dense page p_ that hold bytes (a dense page holds one at
        // least), in one branchless pass, so that the empty ones are never looked at again.
        void enter_page() {
            if (p_ == p_end_) {
                in_page_ = kNone;
                return;
            }
            bits_ = page_bits(*p_);
            occupied_ = 0;
            for (unsigned w = 0; w < kPageGranules; ++w)
                occupied_ |= std::uint64_t{bits_[w] != 0} << w;
            base_ = (p_->key & ~kKeyBit) << (kPageShift - kShift);
            in_page_ = base_ + static_cast<unsigned>(__builtin_ctzll(occupied_));
        }

        const KeyedWord* g_;
        const KeyedWord* g_end_;
        const KeyedWord* p_;
        const KeyedWord* p_end_;
        const std::uint64_t* bits_ = nullptr;
        std::uint64_t occupied_ = 0;    // words of bits_ not visited yet that hold bytes
        std::uint64_t base_ = 0;        // granule of bits_[0]
        std::uint64_t in_page_ = kNone; // granule of the page's next word (kNone: no page left)
    };

  private:
    static std::uint64_t* page_bits(const KeyedWord& p) {
        return reinterpret_cast<std::uint64_t*>(static_cast<std::uintptr_t>(p.word));
    }
    static std::uint64_t word_top(std::uint64_t granule, std::uint64_t mask) {
        return (granule << kShift) + 64 - static_cast<unsigned>(__builtin_clzll(mask));
    }

    // A bit of the dense-page filter per page: a clear bit means no dense page there, and
    // the access to a page that is not dense (most of them, in a site with a few dense pages)
    // goes to the granules without probing the page table.
    static std::uint64_t filter_bit(std::uint64_t page) {
        return std::uint64_t{1} << ((page * 0x9E3779B97F4A7C15ull) >> 58);
    }

    // The bits of [lo, hi) in its granule (one granule: lo < hi <= lo's granule's end).
    static std::uint64_t byte_mask(std::uint64_t lo, std::uint64_t hi) {
        const unsigned from = static_cast<unsigned>(lo & 63);
        const unsigned len = static_cast<unsigned>(hi - lo);
        return len == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << len) - 1) << from;
    }

    // ORs `mask` into granule g's slot (reserved) and makes its page dense when the granule is
    // new in a block that has become dense: the page's bitmap then, else nullptr.
    template <class Arena>
    std::uint64_t* add_granule(std::uint64_t g, std::uint64_t mask, Arena& arena) {
        bool fresh;
        KeyedWord& s = granules_.claim(g | kKeyBit, fresh);
        s.word |= mask;
        if (!fresh || granules_.block_neighbours(s.key) < kDenseBlock) return nullptr;
        return make_dense(g, arena);
    }

    // The bitmap of `page` when it is dense, else nullptr.
    std::uint64_t* bitmap(std::uint64_t page) const {
        if ((dense_filter_ & filter_bit(page)) == 0) return nullptr;
        const KeyedWord* p = pages_.find(page | kKeyBit);
        return p != nullptr ? page_bits(*p) : nullptr;
    }

    // Makes the page of granule g dense: a zeroed bitmap from the arena takes over the
    // granules of g's block, which leave the granule table (a hash: called right after g's
    // claim, so their slots are in cache). The page's other granules, if any, stay in the table
    // (their slots are cold: moving them all cost 16 cache lines per page, 5 % of lbzip2's
    // run); Words joins them with the bitmap's words. nullptr when the arena has no room: the
    // page stays in granules, as exact.
    template <class Arena> std::uint64_t* make_dense(std::uint64_t g, Arena& arena) {
        if (!pages_.reserve(1, arena)) return nullptr;
        constexpr auto units =
            static_cast<std::uint32_t>(kPageGranules * sizeof(std::uint64_t) / sizeof(KeyedWord));
        auto* bits = reinterpret_cast<std::uint64_t*>(arena.template take<KeyedWord>(units));
        if (bits == nullptr) return nullptr;
        for (unsigned i = 0; i < kPageGranules; ++i)
            bits[i] = 0;
        const std::uint64_t block = g & ~std::uint64_t{KeyedWords::kBlock - 1};
        for (unsigned i = 0; i < KeyedWords::kBlock; ++i) {
            if (KeyedWord* s = granules_.find((block + i) | kKeyBit)) {
                bits[(block + i) & (kPageGranules - 1)] = s->word;
                granules_.erase(s);
            }
        }
        const std::uint64_t page = g >> (kPageShift - kShift);
        dense_filter_ |= filter_bit(page);
        bool fresh;
        pages_.claim(page | kKeyBit, fresh).word =
            static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(bits));
        return bits;
    }

    KeyedWords granules_;        // key: granule number | kKeyBit; word: byte mask
    KeyedWords pages_;           // key: page number | kKeyBit; word: the page's bitmap (64 words)
    std::uint64_t dense_filter_; // filter_bit of every dense page
};

// The ranges of a granule set, ascending: each maximal stretch of set bits of a word is one
// range (stretches that touch across a word border come as two; the caller joins them).
class GranuleRanges {
  public:
    explicit GranuleRanges(const GranuleSet& s) : words_(s) { advance(); }
    bool valid() const { return valid_; }
    std::uint64_t lo() const { return lo_; }
    std::uint64_t hi() const { return hi_; }
    void advance() {
        while (mask_ == 0) {
            std::uint64_t granule;
            if (!words_.next(granule, mask_)) {
                valid_ = false;
                return;
            }
            base_ = granule << GranuleSet::kShift;
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
    GranuleSet::Words words_;
    std::uint64_t base_ = 0;
    std::uint64_t mask_ = 0;
    std::uint64_t lo_ = 0;
    std::uint64_t hi_ = 0;
    bool valid_ = false;
};

} // namespace frt
