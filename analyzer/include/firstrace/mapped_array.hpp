// The storage of Trace::sites and Trace::ranges (site_table.hpp, range_table.hpp), from the
// first record the reader parses to the end of the analysis: one mapping grown in place by a
// sixteenth at a time (DESIGN-NOTES "Reading without copies", nineteenth session).
//
// x264's frame threads leave 2.9·10^8 ranges and 6.7·10^7 sites (2.8 GB). The reader used to
// append them to blocks (chunked_array.hpp) and copy those into exactly sized vectors once
// every stream was read: the vector was reserved whole while the blocks were still mapped, and
// one range appended afterwards (a lifetime's split, an OpenMP relocation) doubled the
// vector's capacity: 7.5 GB of address space for 2.8 GB of data, out of memory under a 4 GiB
// cap. Here the reader's table is the model's (moved, not copied), and growing maps only a
// sixteenth more past 64 MiB (a PageArray moved by mremap: page tables, not data, and an
// address-space cap counts only the growth), so the array is mapped at most once and a
// sixteenth. Small arrays double as vectors do.
#pragma once

#include <cstddef>
#include <initializer_list>

#include "firstrace/page_array.hpp"

namespace firstrace {

template <class T> class MappedArray {
  public:
    using value_type = T;

    MappedArray() = default;
    MappedArray(std::initializer_list<T> values) : values_(values) {}

    std::size_t size() const { return values_.size(); }
    bool empty() const { return values_.empty(); }
    std::size_t capacity() const { return values_.capacity(); }
    T& operator[](std::size_t i) { return values_[i]; }
    const T& operator[](std::size_t i) const { return values_[i]; }
    T* data() { return values_.data(); }
    const T* data() const { return values_.data(); }

    void push_back(const T& value) {
        if (values_.size() == values_.capacity()) [[unlikely]]
            grow(values_.size() + 1);
        values_.push_back(value); // within the capacity: no doubling
    }
    // Room for n elements in all, grown as push_back grows (at least a sixteenth past 64 MiB).
    void reserve_for_growth(std::size_t n) {
        if (n > values_.capacity()) grow(n);
    }
    // Exactly room for n elements (no less than the size).
    void reserve(std::size_t n) { values_.reserve(n); }
    // Keeps the first n elements (n <= size()); the mapping stays.
    void truncate(std::size_t n) {
        if (n < values_.size()) values_.resize_for_overwrite(n);
    }
    // n elements; those past the old size are zero.
    void resize(std::size_t n) {
        if (n <= values_.size()) return truncate(n);
        reserve_for_growth(n);
        while (values_.size() < n)
            values_.push_back(T{});
    }
    void clear() { values_.clear(); }
    // Gives back the mapping past the last element's page (in place: nothing is copied).
    void shrink_to_fit() { values_.shrink_to_fit(); }

  private:
    static constexpr std::size_t kDoublingBytes = std::size_t(64) << 20;
    void grow(std::size_t n) {
        const std::size_t size = values_.size();
        const std::size_t step =
            size * sizeof(T) < kDoublingBytes ? (size < 64 ? 64 : size) : size / 16;
        values_.reserve(n > size + step ? n : size + step);
    }

    PageArray<T> values_;
};

} // namespace firstrace
