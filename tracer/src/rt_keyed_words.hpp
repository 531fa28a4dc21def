// An open-addressing hash of {key, word} slots (16 bytes) in the caller's arena: the storage of
// a site's granules and of its dense pages (rt_granule_set.hpp).
//
// Keys are nonzero (0 marks an empty slot). Keys that differ only in their low kBlockBits bits
// form a block and share a hashed place, in order: a program that touches nearby bytes touches
// nearby slots (one or two cache lines of the table rather than one per key), and a key's
// block neighbours can be counted where it was put (block_neighbours).
//
// The table can be sorted in place (sorted(): for writing the event); it is then a sorted
// array that find() searches by bisection, and becomes a hash again at the next reserve().
// Freestanding (no allocation of its own: slots come from the caller's arena, which only grows
// within an event, so a table that doubles leaves the old one behind; std::sort allocates
// nothing).
#pragma once

#include <algorithm>
#include <cstdint>

namespace frt {

struct KeyedWord {
    std::uint64_t key; // 0: an empty slot
    std::uint64_t word;
};

class KeyedWords {
  public:
    static constexpr unsigned kBlockBits = 3;
    static constexpr std::uint32_t kBlock = 1u << kBlockBits;
    // The smallest table: 2 block places (home() needs at least one bit of hash).
    static constexpr std::uint32_t kMinSlots = 2 * kBlock;

    // Empty; the first table will have `initial_slots` (a power of two, at least kMinSlots).
    void reset(std::uint32_t initial_slots) {
        slots_ = nullptr;
        cap_ = 0;
        initial_ = initial_slots;
        used_ = 0;
        sorted_ = false;
    }

    std::uint32_t size() const { return used_; }

    // Room for `extra` more keys at a load of at most 1/2, the table a hash. False when the
    // arena has no room: nothing changed.
    template <class Arena> bool reserve(std::uint64_t extra, Arena& arena) {
        const std::uint64_t need = used_ + extra;
        if (!sorted_ && need <= cap_ / 2) return true;
        std::uint64_t cap = cap_ != 0 ? cap_ : initial_;
        while (need > cap / 2)
            cap *= 2;
        if (cap > (std::uint64_t{1} << 31)) return false;
        KeyedWord* bigger = arena.template take<KeyedWord>(static_cast<std::uint32_t>(cap));
        if (bigger == nullptr) return false;
        for (std::uint32_t i = 0; i < cap; ++i)
            bigger[i] = KeyedWord{0, 0};
        KeyedWord* old = slots_;
        const std::uint32_t old_cap = sorted_ ? used_ : cap_; // sorted: used_ slots, packed
        slots_ = bigger;
        cap_ = static_cast<std::uint32_t>(cap);
        used_ = 0;
        sorted_ = false;
        bool fresh;
        for (std::uint32_t i = 0; i < old_cap; ++i)
            if (old[i].key != 0) claim(old[i].key, fresh).word = old[i].word;
        return true;
    }

    // The slot of `key`, claimed with word 0 when new (`fresh`). reserve() made room.
    KeyedWord& claim(std::uint64_t key, bool& fresh) {
        for (std::uint32_t i = home(key);; i = (i + 1) & (cap_ - 1)) {
            KeyedWord& s = slots_[i];
            if (s.key == key) {
                fresh = false;
                return s;
            }
            if (s.key == 0) {
                s = KeyedWord{key, 0};
                ++used_;
                fresh = true;
                return s;
            }
        }
    }

    // The slot of `key`, or nullptr; in the hash or, after sorted(), by bisection.
    KeyedWord* find(std::uint64_t key) const {
        if (used_ == 0) return nullptr;
        if (sorted_) {
            KeyedWord* s =
                std::lower_bound(slots_, slots_ + used_, key,
                                 [](const KeyedWord& x, std::uint64_t k) { return x.key < k; });
            return s != slots_ + used_ && s->key == key ? s : nullptr;
        }
        for (std::uint32_t i = home(key);; i = (i + 1) & (cap_ - 1)) {
            KeyedWord& s = slots_[i];
            if (s.key == key) return &s;
            if (s.key == 0) return nullptr;
        }
    }

    // Removes the slot `s` of the hash, shifting back the keys of its probe sequence behind it
    // (linear probing's deletion without tombstones: every key stays reachable from its home).
    void erase(KeyedWord* s) {
        const std::uint32_t mask = cap_ - 1;
        std::uint32_t hole = static_cast<std::uint32_t>(s - slots_);
        for (std::uint32_t j = (hole + 1) & mask; slots_[j].key != 0; j = (j + 1) & mask) {
            // slots_[j] may fill the hole unless its home lies cyclically in (hole, j]
            if (((j - home(slots_[j].key)) & mask) >= ((j - hole) & mask)) {
                slots_[hole] = slots_[j];
                hole = j;
            }
        }
        slots_[hole] = KeyedWord{0, 0};
        --used_;
    }

    // How many keys of `key`'s block sit in the kBlock slots of its hashed place: a lower bound
    // of the block's keys held (a collision may have pushed some, `key` too, beyond).
    // The table is a hash.
    unsigned block_neighbours(std::uint64_t key) const {
        const std::uint32_t place = home(key) & ~(kBlock - 1);
        unsigned n = 0;
        for (std::uint32_t i = place; i < place + kBlock; ++i)
            n += (slots_[i].key >> kBlockBits) == (key >> kBlockBits);
        return n;
    }

    // The slots in ascending key order, sorted()[0, size()). Const: the keys and words held do
    // not change, only how they are kept.
    const KeyedWord* sorted() const {
        if (!sorted_) {
            std::uint32_t w = 0;
            for (std::uint32_t i = 0; i < cap_; ++i)
                if (slots_[i].key != 0) slots_[w++] = slots_[i];
            std::sort(slots_, slots_ + w,
                      [](const KeyedWord& x, const KeyedWord& y) { return x.key < y.key; });
            sorted_ = true;
        }
        return slots_;
    }

  private:
    // A block's first slot is a multiple of kBlock (cap_ >= kMinSlots), so its place never
    // wraps around the table.
    std::uint32_t home(std::uint64_t key) const {
        const unsigned bits = static_cast<unsigned>(__builtin_ctz(cap_)) - kBlockBits;
        const auto block = static_cast<std::uint32_t>(
            ((key >> kBlockBits) * 0x9E3779B97F4A7C15ull) >> (64 - bits));
        return block << kBlockBits | static_cast<std::uint32_t>(key & (kBlock - 1));
    }

    KeyedWord* slots_;
    std::uint32_t cap_; // slots, a power of two (0: none yet)
    std::uint32_t used_;
    std::uint32_t initial_;
    mutable bool sorted_; // slots_[0, used_) sorted by key: not a hash until rebuilt
};

} // namespace frt
