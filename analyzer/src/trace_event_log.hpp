// The events of one process while the trace is read: appended one by one, then handed to the
// model as an exactly sized std::vector<Event> (Process::events).
//
// A std::vector grown by doubling copies every event once more on average and holds the old and
// the new array at once while it grows; sized exactly at the end, it copies them all again. On
// a sync-heavy trace (14·10^6 events, 1.6·10^6 in one thread) those copies were a quarter of the
// reader's time. Events are trivially copyable, so this log grows with realloc: glibc moves a
// large block by remapping its pages (mremap), without copying them and without holding both
// arrays. `take` makes the one exact copy the model keeps.
#pragma once

#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "firstrace/model.hpp"

namespace firstrace {

class EventLog {
    static_assert(std::is_trivially_copyable_v<Event>);

  public:
    EventLog() = default;
    EventLog(EventLog&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)),
          capacity_(std::exchange(other.capacity_, 0)) {}
    EventLog& operator=(EventLog&& other) noexcept {
        if (this != &other) {
            std::free(data_);
            data_ = std::exchange(other.data_, nullptr);
            size_ = std::exchange(other.size_, 0);
            capacity_ = std::exchange(other.capacity_, 0);
        }
        return *this;
    }
    EventLog(const EventLog&) = delete;
    EventLog& operator=(const EventLog&) = delete;
    ~EventLog() { std::free(data_); }

    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    Event& operator[](std::size_t i) { return data_[i]; }
    const Event& operator[](std::size_t i) const { return data_[i]; }
    Event& back() { return data_[size_ - 1]; }
    Event* begin() { return data_; }
    Event* end() { return data_ + size_; }
    const Event* begin() const { return data_; }
    const Event* end() const { return data_ + size_; }

    void push_back(const Event& e) {
        const Event copy = e; // `e` may be an element of this log
        if (size_ == capacity_) grow();
        new (data_ + size_) Event(copy);
        ++size_;
    }
    // Keeps the first n events (n <= size()).
    void truncate(std::size_t n) {
        if (n < size_) size_ = n;
    }
    // The events as an exactly sized vector; the log is left empty.
    std::vector<Event> take() {
        shrink_to_fit(); // the unused tail is not held beside the copy
        std::vector<Event> out(begin(), end());
        *this = EventLog();
        return out;
    }

    // Gives the unused capacity back (realloc shrinks a large block in place).
    void shrink_to_fit() {
        if (size_ == capacity_) return;
        if (size_ == 0) {
            *this = EventLog();
            return;
        }
        void* shrunk = std::realloc(data_, size_ * sizeof(Event));
        if (shrunk == nullptr) return; // keeps the larger block
        data_ = static_cast<Event*>(shrunk);
        capacity_ = size_;
    }

  private:
    // Doubling while small; then by a quarter: a remapping realloc costs page-table work, not
    // a copy, so a small factor is cheap, and the unused tail, reserved address space under a
    // `prlimit --as` cap, is at most a quarter of the log instead of as much again
    // (DESIGN-NOTES "Sparse vector timestamps").
    void grow() {
        const std::size_t capacity = capacity_ == 0      ? 64
                                     : capacity_ < 65536 ? capacity_ * 2
                                                         : capacity_ + capacity_ / 4;
        void* grown = std::realloc(data_, capacity * sizeof(Event));
        if (grown == nullptr) throw std::bad_alloc();
        data_ = static_cast<Event*>(grown);
        capacity_ = capacity;
    }

    Event* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
};

} // namespace firstrace
