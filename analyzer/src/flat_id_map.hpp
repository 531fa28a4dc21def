// A hash map from 64-bit keys to dense 32-bit ids, open addressing with linear probing in one
// flat array: the trace reader interns program counters, calling-context nodes (parent node,
// frame) and the tracer's process ids through it, millions of times for a recursive task
// program (issue 10: 10^6 tasks). std::map and std::unordered_map allocate a node per entry and
// chase pointers per lookup; here a lookup is one multiply and, almost always, one cache line.
// Entries are never erased (ids are interned for the whole trace).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace firstrace {

class FlatIdMap {
  public:
    static constexpr std::uint32_t kAbsent = 0xffffffffu;

    std::size_t size() const { return size_; }

    // The id of `key`, or kAbsent.
    std::uint32_t find(std::uint64_t key) const {
        if (slots_.empty()) return kAbsent;
        for (std::size_t i = home(key);; i = (i + 1) & mask_) {
            const Slot& s = slots_[i];
            if (s.id == kAbsent) return kAbsent;
            if (s.key == key) return s.id;
        }
    }

    // The id of `key`; when absent, `id` (never kAbsent) is stored for it. Returns (id,
    // inserted).
    std::pair<std::uint32_t, bool> try_emplace(std::uint64_t key, std::uint32_t id) {
        Slot& s = slot_of(key);
        if (s.id != kAbsent) return {s.id, false};
        s = {key, id};
        ++size_;
        return {id, true};
    }

    // Overwrites or adds `key`'s id.
    void assign(std::uint64_t key, std::uint32_t id) {
        Slot& s = slot_of(key);
        if (s.id == kAbsent) ++size_;
        s = {key, id};
    }

    // Calls f(key, id) for every entry, in no particular order.
    template <class F> void for_each(F&& f) const {
        for (const Slot& s : slots_)
            if (s.id != kAbsent) f(s.key, s.id);
    }

    void clear() {
        slots_.clear();
        slots_.shrink_to_fit();
        size_ = 0;
        mask_ = 0;
    }

  private:
    struct Slot {
        std::uint64_t key = 0;
        std::uint32_t id = kAbsent;
    };

    // The slot holding `key`, or the empty one where it goes (the table grown first, so that
    // an insertion keeps the load factor at most 3/4).
    Slot& slot_of(std::uint64_t key) {
        if ((size_ + 1) * 4 > slots_.size() * 3) grow();
        for (std::size_t i = home(key);; i = (i + 1) & mask_) {
            Slot& s = slots_[i];
            if (s.id == kAbsent || s.key == key) return s;
        }
    }

    std::size_t home(std::uint64_t key) const {
        // Fibonacci hashing: the high bits of the product mix every bit of the key.
        return static_cast<std::size_t>((key * 0x9e3779b97f4a7c15ull) >> 32) & mask_;
    }

    void grow() {
        std::vector<Slot> old;
        old.swap(slots_);
        slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
        mask_ = slots_.size() - 1;
        size_ = 0;
        for (const Slot& s : old)
            if (s.id != kAbsent) try_emplace(s.key, s.id);
    }

    std::vector<Slot> slots_;
    std::size_t mask_ = 0;
    std::size_t size_ = 0;
};

} // namespace firstrace
