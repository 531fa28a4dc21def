// An array appended to in fixed blocks, for the access sites and ranges while a trace is read.
//
// A std::vector grown by doubling holds the old and the new array at once while it grows and
// ends with up to as much again unused: SQLite's walthread5 trace has 1.7·10^8 ranges (2.7 GB
// exactly sized), whose vector reached 4.3 GB of capacity with 2.1 GB beside it while growing.
// Blocks are never copied while the trace is read; once it is read, move_to makes the one
// exactly sized vector the model keeps, freeing each block as soon as it is copied, so the
// peak is the final array plus one block (DESIGN-NOTES "Reading large traces"). Blocks are
// mapped and unmapped directly: from malloc, freed blocks would stay in the heap (glibc raises
// its mmap threshold past a block's size after the first free) beside the final array.
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <new>
#include <type_traits>
#include <vector>

namespace firstrace {

template <class T> class ChunkedArray {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

  public:
    ChunkedArray() = default;
    ChunkedArray(const ChunkedArray&) = delete;
    ChunkedArray& operator=(const ChunkedArray&) = delete;
    ~ChunkedArray() { truncate(0); }

    std::size_t size() const { return size_; }
    T& operator[](std::size_t i) { return blocks_[i >> kBlockBits][i & kMask]; }
    const T& operator[](std::size_t i) const { return blocks_[i >> kBlockBits][i & kMask]; }

    void push_back(const T& value) {
        if ((size_ >> kBlockBits) == blocks_.size()) {
            void* block = ::mmap(nullptr, kBlockBytes, PROT_READ | PROT_WRITE,
                                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (block == MAP_FAILED) throw std::bad_alloc();
            blocks_.push_back(static_cast<T*>(block));
        }
        (*this)[size_++] = value;
    }
    // Keeps the first n elements (n <= size()).
    void truncate(std::size_t n) {
        if (n >= size_) return;
        size_ = n;
        const std::size_t kept = (n + kMask) >> kBlockBits;
        for (std::size_t b = kept; b < blocks_.size(); ++b)
            ::munmap(blocks_[b], kBlockBytes);
        blocks_.resize(kept);
    }
    // Appends the elements to `out` and leaves this array empty.
    template <class Out> void move_to(Out& out) {
        out.reserve(out.size() + size_);
        for (std::size_t b = 0; b < blocks_.size(); ++b) {
            const std::size_t n = std::min(kBlockSize, size_ - (b << kBlockBits));
            for (std::size_t k = 0; k < n; ++k)
                out.push_back(blocks_[b][k]);
            ::munmap(blocks_[b], kBlockBytes);
        }
        blocks_.clear();
        size_ = 0;
    }

  private:
    static constexpr unsigned kBlockBits = 18;
    static constexpr std::size_t kBlockSize = std::size_t{1} << kBlockBits;
    static constexpr std::size_t kMask = kBlockSize - 1;
    static constexpr std::size_t kBlockBytes = kBlockSize * sizeof(T);
    std::vector<T*> blocks_;
    std::size_t size_ = 0;
};

} // namespace firstrace
