// The apparent races of an analysis, index == id, kept by column (issue 14).
//
// Dense traces have up to 10^8 races: fork/join waves at 1.4·10^6 lines have 2.3·10^8, and the
// 36-byte `Race` record of each was 8 GB of fresh memory (page zeroing was half the CPU time)
// made in a last pass over everything the stages had already stored. A race is instead its b's
// event number (4 bytes), its status (1) and its partition (1-4); a is stored once per run of
// races with the same a (the analysis emits races sorted by a, thousands per a on dense traces),
// events once in a table of their `EventRef`s, and ids, tangles and the complete mode's overlap
// only when some race needs them. The status and partition columns are the stages' own arrays,
// moved in. Readers get a `Race` by value: `for (const Race& r : list)` and `list[i]` read as
// with a vector of records.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <unordered_map>
#include <vector>

#include "firstrace/packed_id_column.hpp"
#include "firstrace/page_array.hpp"
#include "firstrace/race.hpp"

namespace firstrace {

class RaceList {
  public:
    // The analysis' columns (every per-race vector has one entry per race, or none where said).
    struct Columns {
        std::vector<EventRef> events;       // event number -> event
        std::vector<std::uint32_t> a_begin; // per run of races with one a: its first race
        std::vector<std::uint32_t> a_event; // per run: a's event number
        PageArray<std::uint32_t> b_event;   // per race: b's event number (grown in place)
        PageArray<RaceStatus> status;       // per race
        PackedIdColumn partition;           // per race (1, 2 or 4 bytes an entry)
        PageArray<std::uint32_t> tangle;    // per race (kNone: untangled), or none at all
        PageArray<std::uint8_t> actual;     // per race (0 unknown, 1 no, 2 yes), or none at all
    };

    class Iterator {
      public:
        using iterator_category = std::random_access_iterator_tag;
        using value_type = Race;
        using difference_type = std::ptrdiff_t;
        using reference = Race;
        using pointer = void;

        Iterator() = default;
        Race operator*() const { return list_->at_run(index_, run_); }
        Race operator[](difference_type n) const { return *(*this + n); }
        Iterator& operator++() {
            ++index_;
            if (run_ + 1 < list_->a_begin_.size() && index_ >= list_->a_begin_[run_ + 1]) ++run_;
            return *this;
        }
        Iterator operator++(int) {
            Iterator was = *this;
            ++*this;
            return was;
        }
        Iterator& operator--() { return *this = Iterator(*list_, index_ - 1); }
        Iterator operator--(int) {
            Iterator was = *this;
            --*this;
            return was;
        }
        Iterator& operator+=(difference_type n) {
            return *this = Iterator(*list_, std::size_t(difference_type(index_) + n));
        }
        Iterator& operator-=(difference_type n) { return *this += -n; }
        friend Iterator operator+(Iterator it, difference_type n) { return it += n; }
        friend Iterator operator+(difference_type n, Iterator it) { return it += n; }
        friend Iterator operator-(Iterator it, difference_type n) { return it -= n; }
        friend difference_type operator-(const Iterator& x, const Iterator& y) {
            return difference_type(x.index_) - difference_type(y.index_);
        }
        friend bool operator==(const Iterator& x, const Iterator& y) {
            return x.index_ == y.index_;
        }
        friend auto operator<=>(const Iterator& x, const Iterator& y) {
            return x.index_ <=> y.index_;
        }

      private:
        friend class RaceList;
        Iterator(const RaceList& list, std::size_t index)
            : list_(&list), index_(index), run_(list.run_of(index)) {}
        const RaceList* list_ = nullptr;
        std::size_t index_ = 0;
        std::size_t run_ = 0; // the run of a holding index_ (while index_ < size)
    };
    using const_iterator = Iterator;
    using value_type = Race;
    using size_type = std::size_t;

    RaceList() = default;
    RaceList(std::initializer_list<Race> races);
    RaceList& operator=(std::initializer_list<Race> races);
    explicit RaceList(Columns columns);

    std::size_t size() const { return b_event_.size(); }
    bool empty() const { return b_event_.empty(); }
    Race operator[](std::size_t i) const { return at_run(i, run_of(i)); }
    Race front() const { return (*this)[0]; }
    Race back() const { return (*this)[size() - 1]; }
    Iterator begin() const { return Iterator(*this, 0); }
    Iterator end() const { return Iterator(*this, size()); }

    // By column, for passes over every race that read a few fields of each (the text report's
    // race sites: 2.3·10^8 races on waves, where building a `Race` per race, its two EventRefs
    // looked up, was most of a pass). Event numbers index events().
    const std::vector<EventRef>& events() const { return events_; }
    // f(index of the run's first race, a's event number, b's event numbers as [b, b_end)) for
    // every run of races with one a, in order.
    template <class F> void for_each_run(F&& f) const {
        for (std::size_t run = 0; run < a_begin_.size(); ++run) {
            const std::size_t last = run + 1 < a_begin_.size() ? a_begin_[run + 1] : size();
            f(a_begin_[run], a_event_[run], b_event_.data() + a_begin_[run],
              b_event_.data() + last);
        }
    }
    std::uint32_t id(std::size_t i) const {
        return id_.empty() ? static_cast<std::uint32_t>(i) : id_[i];
    }
    RaceStatus status(std::size_t i) const { return status_[i]; }
    std::uint32_t partition(std::size_t i) const { return partition_[i]; }
    bool actual(std::size_t i) const { return !actual_.empty() && actual_[i] == 2; }

    void reserve(std::size_t n);
    void push_back(const Race& race);
    void clear() { *this = RaceList(); }

  private:
    std::size_t run_of(std::size_t i) const;
    // Inline: the reports read every race of 10^8 this way, several times.
    Race at_run(std::size_t i, std::size_t run) const {
        Race r;
        r.id = id(i);
        r.a = events_[a_event_[run]];
        r.b = events_[b_event_[i]];
        if (!tangle_.empty() && tangle_[i] != kNone) r.tangle = tangle_[i];
        r.partition = partition(i);
        r.status = status(i);
        if (!actual_.empty() && actual_[i] != 0) r.actual = actual_[i] == 2;
        return r;
    }
    std::uint32_t event_number(const EventRef& e);

    std::vector<EventRef> events_;
    std::vector<std::uint32_t> a_begin_, a_event_;
    PageArray<std::uint32_t> b_event_;
    PageArray<RaceStatus> status_;
    PackedIdColumn partition_;
    std::vector<std::uint32_t> id_; // per race, or none while every id is its index
    PageArray<std::uint32_t> tangle_;
    PageArray<std::uint8_t> actual_;
    std::unordered_map<std::uint64_t, std::uint32_t> number_of_; // push_back's, over events_
};

} // namespace firstrace
