// A column of small ids (partition ids, one per race) in 1, 2 or 4 bytes an entry: as wide as
// the largest id stored needs (DESIGN-NOTES "Partitions without member lists").
//
// The race -> partition column has an entry per race, 2.3·10^8 on fork/join waves at 1.4·10^6
// lines, where it holds the ids of 26 partitions: at 4 bytes an entry it was 0.9 GB of fresh
// pages, each zeroed by the kernel on first touch (huge_pages.hpp), at 1 byte 0.23 GB. The
// ordering stage numbers partitions as it meets them, so the width grows when a larger id comes:
// the entries so far are copied once a step (1 -> 2 -> 4 bytes), early on traces with many
// partitions (each race alone is one) and never on those with a few.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>

#include "firstrace/page_array.hpp"

namespace firstrace {

class PackedIdColumn {
  public:
    PackedIdColumn() = default;
    PackedIdColumn(std::initializer_list<std::uint32_t> ids) {
        for (const std::uint32_t id : ids)
            push_back(id);
    }

    std::size_t size() const {
        return width_ == 1 ? narrow_.size() : width_ == 2 ? medium_.size() : wide_.size();
    }
    bool empty() const { return size() == 0; }
    unsigned width() const { return width_; } // bytes an entry
    // Inline: the reports read the partition of every race this way.
    std::uint32_t operator[](std::size_t i) const {
        return width_ == 1 ? narrow_[i] : width_ == 2 ? medium_[i] : wide_[i];
    }

    void reserve(std::size_t n) {
        if (width_ == 1)
            narrow_.reserve(n);
        else if (width_ == 2)
            medium_.reserve(n);
        else
            wide_.reserve(n);
    }
    void push_back(std::uint32_t id) {
        fit(id);
        if (width_ == 1)
            narrow_.push_back(static_cast<std::uint8_t>(id));
        else if (width_ == 2)
            medium_.push_back(static_cast<std::uint16_t>(id));
        else
            wide_.push_back(id);
    }
    void set(std::size_t i, std::uint32_t id) {
        fit(id);
        if (width_ == 1)
            narrow_[i] = static_cast<std::uint8_t>(id);
        else if (width_ == 2)
            medium_[i] = static_cast<std::uint16_t>(id);
        else
            wide_[i] = id;
    }

  private:
    // Widens the column until `id` fits, keeping its capacity. The test inline, the widening
    // not: set() is called once a race (2.3·10^8 on waves), the widening twice at most.
    void fit(std::uint32_t id) {
        if (id > largest_) widen_to(id);
    }
    [[gnu::noinline]] void widen_to(std::uint32_t id) {
        if (width_ == 1 && id > std::numeric_limits<std::uint8_t>::max()) {
            widen(narrow_, medium_);
            width_ = 2;
        }
        if (width_ == 2 && id > std::numeric_limits<std::uint16_t>::max()) {
            widen(medium_, wide_);
            width_ = 4;
        }
        largest_ = width_ == 1   ? std::numeric_limits<std::uint8_t>::max()
                   : width_ == 2 ? std::numeric_limits<std::uint16_t>::max()
                                 : std::numeric_limits<std::uint32_t>::max();
    }
    template <class Narrow, class Wide>
    static void widen(PageArray<Narrow>& from, PageArray<Wide>& to) {
        to.reserve(from.capacity());
        for (const Narrow id : from)
            to.push_back(id);
        from = PageArray<Narrow>();
    }

    PageArray<std::uint8_t> narrow_;  // while width_ == 1
    PageArray<std::uint16_t> medium_; // while width_ == 2
    PageArray<std::uint32_t> wide_;   // while width_ == 4
    unsigned width_ = 1;
    std::uint32_t largest_ = std::numeric_limits<std::uint8_t>::max(); // fits in width_
};

} // namespace firstrace
