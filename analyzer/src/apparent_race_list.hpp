// The apparent races of the sweep, kept by column (issue 14, DESIGN-NOTES "Apparent races by
// column").
//
// Dense traces have up to 10^8 races (fork/join waves at 1.4·10^6 lines: 2.3·10^8), sorted by
// (a, b) with thousands per a. A 12-byte record per race was 2.7 GB there, grown by doubling onto
// fresh pages (6 GB zeroed) and then copied once more into the result's b column. Here a race
// is b's event number (4 bytes) and its two dependence flags (2 bits); a is stored once per run
// of races with the same a. The b and run columns are the result's own (RaceList::Columns):
// moved there by the results stage, not copied; they grow in place (page_array.hpp). Readers
// walk the races in order (for_each, or a range-for: O(1) a race); operator[] finds a's run by
// binary search (tests, and a race now and then).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "analysis_ids.hpp"
#include "firstrace/page_array.hpp"

namespace firstrace {

// One unordered pair of events with a conflict. What the pair races on is recomputed when a
// report asks (race_accesses.hpp).
struct ApparentRace {
    EventId a; // the event of the lower process id
    EventId b;
    bool a_writes_b_reads = false; // WRITE(a) ∩ READ(b) != ∅: a may event-control b
    bool b_writes_a_reads = false;
};

class ApparentRaceList {
  public:
    std::size_t size() const { return b_event_.size(); }
    bool empty() const { return b_event_.empty(); }
    ApparentRace operator[](std::size_t i) const { return at_run(i, run_of(i)); }

    // For range-for loops (tests): the races in order, by value, following the runs.
    struct Cursor {
        const ApparentRaceList* list;
        std::size_t index, run;
        ApparentRace operator*() const { return list->at_run(index, run); }
        Cursor& operator++() {
            const auto& starts = list->a_begin_;
            if (++index < list->size() && run + 1 < starts.size() && index >= starts[run + 1])
                ++run;
            return *this;
        }
        bool operator==(const Cursor& other) const { return index == other.index; }
    };
    Cursor begin() const { return {this, 0, 0}; }
    Cursor end() const { return {this, size(), 0}; }

    // f(race index, a, b) for every race in order: how the stages read the races (O(1) a race).
    // The flags of race i, when f needs them: with_flags(i, a, b).
    template <class F> void for_each(F&& f) const {
        for_each_run([&](std::uint32_t first, EventId a, const std::uint32_t* b,
                         const std::uint32_t* b_end) {
            for (const std::uint32_t* p = b; p != b_end; ++p)
                f(static_cast<std::uint32_t>(first + (p - b)), a, EventId(*p));
        });
    }
    // f(index of the run's first race, a, b's event numbers as [b, b_end)) for every run of races
    // with one a, in order: for stages that take a run whole (the shared-data dependence lists).
    template <class F> void for_each_run(F&& f) const {
        for (std::size_t run = 0; run < a_begin_.size(); ++run) {
            const std::size_t last = run + 1 < a_begin_.size() ? a_begin_[run + 1] : size();
            f(a_begin_[run], EventId(a_event_[run]), b_event_.data() + a_begin_[run],
              b_event_.data() + last);
        }
    }

    ApparentRace with_flags(std::uint32_t i, EventId a, EventId b) const {
        const std::uint64_t flags = flags_.empty() ? 0 : flags_[i / 32] >> (2 * (i % 32));
        return {a, b, (flags & 1) != 0, (flags & 2) != 0};
    }

    // Appends a race whose a is not below the last one's (the sweep emits x's partners in
    // order, x ascending).
    void push_back(const ApparentRace& race) {
        if (size() >= std::numeric_limits<std::uint32_t>::max())
            throw std::length_error("apparent races: more than 2^32 - 1");
        if (a_event_.empty() || a_event_.back() != race.a.value) {
            a_begin_.push_back(static_cast<std::uint32_t>(size()));
            a_event_.push_back(race.a.value);
        }
        const std::size_t i = size();
        b_event_.push_back(race.b.value);
        if (i % 32 == 0) flags_.push_back(0);
        flags_.back() |=
            std::uint64_t((race.a_writes_b_reads ? 1 : 0) | (race.b_writes_a_reads ? 2 : 0))
            << (2 * (i % 32));
    }
    // Whether <a, b> is listed.
    bool contains(EventId a, EventId b) const {
        const auto run = std::lower_bound(a_event_.begin(), a_event_.end(), a.value);
        if (run == a_event_.end() || *run != a.value) return false;
        const std::size_t k = std::size_t(run - a_event_.begin());
        const auto first = b_event_.begin() + a_begin_[k];
        const auto last =
            k + 1 < a_begin_.size() ? b_event_.begin() + a_begin_[k + 1] : b_event_.end();
        return std::binary_search(first, last, b.value);
    }

    // The dependence flags are read by the dependence stage only: freed after it.
    void release_flags() { flags_ = PageArray<std::uint64_t>(); }
    // Moves the columns out to the result (RaceList::Columns): per run its first race and a's
    // event number, per race b's event number. The list is empty afterwards.
    void move_columns_to(std::vector<std::uint32_t>& a_begin, std::vector<std::uint32_t>& a_event,
                         PageArray<std::uint32_t>& b_event) {
        a_begin = std::move(a_begin_);
        a_event = std::move(a_event_);
        b_event = std::move(b_event_);
        *this = ApparentRaceList();
    }

  private:
    std::size_t run_of(std::size_t i) const {
        return std::size_t(std::upper_bound(a_begin_.begin(), a_begin_.end(), i) -
                           a_begin_.begin()) -
               1;
    }
    ApparentRace at_run(std::size_t i, std::size_t run) const {
        return with_flags(static_cast<std::uint32_t>(i), EventId(a_event_[run]),
                          EventId(b_event_[i]));
    }

    std::vector<std::uint32_t> a_begin_; // per run of races with one a: its first race
    std::vector<std::uint32_t> a_event_; // per run: a's event number
    // Grown in place (page_array.hpp), and moved to the result as they are.
    PageArray<std::uint32_t> b_event_; // per race: b's event number
    // Per race two bits, 32 races a word (race i at bit 2 (i mod 32)): 1 a_writes_b_reads,
    // 2 b_writes_a_reads. A byte a race was 0.23 GB of fresh pages on fork/join waves.
    PageArray<std::uint64_t> flags_;
};

} // namespace firstrace
