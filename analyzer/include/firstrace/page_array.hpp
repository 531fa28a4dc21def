// A contiguous array of trivially copyable values in its own mapping, grown by mremap: the pages
// already written move with the mapping instead of being copied onto fresh ones (DESIGN-NOTES
// "Apparent races by column").
//
// The sweep appends one column entry per race without knowing how many will come: 2.3·10^8 on
// fork/join waves at 1.4·10^6 lines. A std::vector grown by doubling writes every element again
// into fresh pages at each step, each page zeroed by the kernel first: about twice the final
// array in fresh memory, while the old and the new array are mapped at once. Here growing maps
// new pages only past the end (the kernel's page tables are moved, not the data), and an
// address-space cap sees the array once. Large arrays ask for transparent huge pages (one fault
// per 2 MiB, huge_page_advice.hpp), and during an analysis a large array freed leaves its pages
// to the next one (reused_pages.hpp). Elsewhere than Linux, realloc does the same job as well
// as it can.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <new>
#include <type_traits>
#include <utility>

#include "firstrace/huge_page_advice.hpp"
#include "firstrace/reused_pages.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace firstrace {

template <class T> class PageArray {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

  public:
    using value_type = T;
    using iterator = T*;
    using const_iterator = const T*;

    PageArray() = default;
    PageArray(std::initializer_list<T> values) {
        reserve(values.size());
        for (const T& v : values)
            push_back(v);
    }
    PageArray(const PageArray& other) {
        reserve(other.size_);
        if (other.size_ != 0) std::memcpy(data_, other.data_, other.size_ * sizeof(T));
        size_ = other.size_;
    }
    PageArray(PageArray&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)),
          bytes_(std::exchange(other.bytes_, 0)) {}
    PageArray& operator=(PageArray other) noexcept {
        std::swap(data_, other.data_);
        std::swap(size_, other.size_);
        std::swap(bytes_, other.bytes_);
        return *this;
    }
    ~PageArray() { unmap(data_, bytes_); }

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    std::size_t capacity() const { return bytes_ / sizeof(T); }
    T* data() { return data_; }
    const T* data() const { return data_; }
    T& operator[](std::size_t i) { return data_[i]; }
    const T& operator[](std::size_t i) const { return data_[i]; }
    T& back() { return data_[size_ - 1]; }
    const T& back() const { return data_[size_ - 1]; }
    T* begin() { return data_; }
    T* end() { return data_ + size_; }
    const T* begin() const { return data_; }
    const T* end() const { return data_ + size_; }

    void push_back(const T& value) {
        if (size_ == capacity()) reserve(size_ < 1024 ? 1024 : 2 * size_);
        data_[size_++] = value;
    }
    void clear() { size_ = 0; }
    // n elements, each `value`.
    void assign(std::size_t n, const T& value) {
        resize_for_overwrite(n);
        std::fill(data_, data_ + n, value);
    }
    // n elements, those past the old size unspecified (pages reused or zeroed): for arrays
    // the caller writes whole, which spares writing fresh pages twice.
    void resize_for_overwrite(std::size_t n) {
        reserve(n);
        size_ = n;
    }
    void reserve(std::size_t n) {
        if (n <= capacity()) return;
        const std::size_t bytes = round_up(n * sizeof(T));
        data_ = static_cast<T*>(remap(data_, bytes_, bytes));
        bytes_ = bytes;
    }
    // Gives back the mapping past the last element's page (mremap shrinks in place: nothing is
    // copied, unlike std::vector::shrink_to_fit, which holds both arrays while it copies).
    void shrink_to_fit() {
        const std::size_t bytes = round_up(size_ * sizeof(T));
        if (bytes >= bytes_) return;
        if (bytes == 0) {
            unmap(data_, bytes_);
            data_ = nullptr;
        } else {
            data_ = static_cast<T*>(remap(data_, bytes_, bytes));
        }
        bytes_ = bytes;
    }

  private:
    static constexpr std::size_t kPage = 4096, kHuge = std::size_t(1) << 21;
    static std::size_t round_up(std::size_t bytes) {
        const std::size_t unit = bytes >= 8 * kHuge ? kHuge : kPage;
        return (bytes + unit - 1) / unit * unit;
    }
#if defined(__linux__)
    static void* remap(void* old, std::size_t old_bytes, std::size_t bytes) {
        void* p = old != nullptr ? ::mremap(old, old_bytes, bytes, MREMAP_MAYMOVE)
                                 : ReusedPages::take(bytes);
        if (p == nullptr)
            p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        advise_huge_pages(p, bytes);
        return p;
    }
    static void unmap(void* p, std::size_t bytes) {
        if (p != nullptr && !ReusedPages::keep(p, bytes)) ::munmap(p, bytes);
    }
#else
    static void* remap(void* old, std::size_t, std::size_t bytes) {
        void* p = std::realloc(old, bytes);
        if (p == nullptr) throw std::bad_alloc();
        return p;
    }
    static void unmap(void* p, std::size_t) {
        std::free(p);
    }
#endif

    T* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t bytes_ = 0; // the mapping's length
};

} // namespace firstrace
