// A bit set over [0, size) with constant-time rank (the number of set bits before a position),
// for tables that keep an entry only at some positions of a dense id range (the checkpoints
// of sparse vector timestamps, reachability.hpp): 1.5 bits per position instead of a 32-bit
// index each. Set the bits, then call finish() once before rank().
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace firstrace {

class RankedBits {
  public:
    RankedBits() = default;
    explicit RankedBits(std::uint32_t size) : words_(std::size_t{size} / 64 + 1, 0) {}

    void set(std::uint32_t i) { words_[i >> 6] |= std::uint64_t(1) << (i & 63); }
    bool test(std::uint32_t i) const { return (words_[i >> 6] >> (i & 63)) & 1; }

    // Counts the bits set so far, word by word: rank() is valid from here on (no set() after).
    void finish() {
        before_.resize(words_.size());
        std::uint32_t total = 0;
        for (std::size_t w = 0; w < words_.size(); ++w) {
            before_[w] = total;
            total += static_cast<std::uint32_t>(std::popcount(words_[w]));
        }
        count_ = total;
    }
    // Set bits at positions < i (i <= size).
    std::uint32_t rank(std::uint32_t i) const {
        const std::uint64_t below = (std::uint64_t(1) << (i & 63)) - 1;
        return before_[i >> 6] + static_cast<std::uint32_t>(std::popcount(words_[i >> 6] & below));
    }
    std::uint32_t count() const { return count_; }

  private:
    std::vector<std::uint64_t> words_;
    std::vector<std::uint32_t> before_; // set bits in the words before each word
    std::uint32_t count_ = 0;
};

} // namespace firstrace
