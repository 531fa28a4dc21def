// The direct dependences (thesis 7.2.1, Alg 7.1; DESIGN step 4) as lists both ways, by source
// and by target, for the transitive search (dependences.cpp). DESIGN-NOTES "Direct dependence
// lists in place".
//
// Every race <a, b> (a of the lower process, so a < b) gives at most the two dependences a -> b
// and b -> a. The race list is sorted by (a, b) and keeps a's b's as one run (ApparentRaceList):
// x's targets above x are the races of its run that give x -> b, its targets below x the
// transposed races (the a's whose runs hold x and give x -> a). Only the transposed part is
// stored; the part from the run is read in place, with a bit per race and direction saying
// whether the race gives the dependence. Sources alike, with the directions swapped. Fork/join
// waves at 1.4·10^6 lines: 2.3·10^8 races, 1.8 GB of copies of both directions before, 0.9 GB
// now (the transposed ones) and a quarter bit per race and direction.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

#include "apparent_races.hpp"
#include "firstrace/page_array.hpp"

namespace firstrace {

enum class DependenceKind : std::uint8_t { SharedData, EventControl };

// Whether a dependence x -> y is possible under the ordering mode.
inline bool dependence_allowed(const TemporalGraph& g, Ordering ordering, EventId x, EventId y) {
    if (ordering == Ordering::Approximate) return true;
    return !(g.event(y).clock_finish < g.event(x).clock_start);
}

// The events' clocks (complete ordering), for the per-race passes: on dense traces events are
// few and races many (1.4·10^4 events for 9.2·10^6 races on vars at 10^5 lines), and an event's
// record in the trace is three dependent loads away, so they are copied into one array when the
// pairs the passes read (`pairs`: the sweep's races and atomic-only pairs) are at least as many
// as the events. With fewer pairs than events (sync-heavy traces: a lock stress of 3.2·10^7
// events and no race) the copy would be 16 bytes an event, most never read: the clocks are read
// from the trace instead (DESIGN-NOTES "Analysis memory on dense real traces"). Empty in
// approximate mode.
class EventClocks {
  public:
    EventClocks(const TemporalGraph& g, Ordering ordering,
                std::uint64_t pairs = std::numeric_limits<std::uint64_t>::max()) {
        if (ordering != Ordering::Complete) return;
        if (pairs < g.event_count()) {
            g_ = &g;
            return;
        }
        clocks_.reserve(g.event_count());
        for (const EventId e : g.events())
            clocks_.push_back({g.event(e).clock_start, g.event(e).clock_finish});
    }
    // dependence_allowed(g, ordering, x, y)
    bool allowed(EventId x, EventId y) const {
        if (g_) return !(g_->event(y).clock_finish < g_->event(x).clock_start);
        return clocks_.empty() || !(clocks_[y.value].finish < clocks_[x.value].start);
    }
    // Complete mode: the two events overlapped in time.
    bool overlap(EventId x, EventId y) const {
        if (g_) {
            const Event &ex = g_->event(x), &ey = g_->event(y);
            return !(ex.clock_finish < ey.clock_start) && !(ey.clock_finish < ex.clock_start);
        }
        return !(clocks_[x.value].finish < clocks_[y.value].start) &&
               !(clocks_[y.value].finish < clocks_[x.value].start);
    }

  private:
    struct Clocks {
        std::uint64_t start, finish;
    };
    const TemporalGraph* g_ = nullptr; // complete mode without the copy: read from the trace
    std::vector<Clocks> clocks_;
};

// A bit per race (on reused pages: the lists' passes write every word).
class RaceBits {
  public:
    // Room for the bits of `races` races, their values unspecified until written.
    void resize_for_overwrite(std::size_t races) { words_.resize_for_overwrite((races + 63) / 64); }
    PageArray<std::uint64_t>& words() { return words_; }
    const PageArray<std::uint64_t>& words() const { return words_; }
    bool operator[](std::uint32_t i) const { return (words_[i / 64] >> (i % 64)) & 1; }
    // Set bits in [from, to).
    std::uint32_t count(std::uint32_t from, std::uint32_t to) const {
        std::uint32_t n = 0;
        for_each_word(from, to, [&](std::uint32_t, std::uint64_t w) {
            n += static_cast<std::uint32_t>(std::popcount(w));
            return true;
        });
        return n;
    }
    // The first set bit in [from, to), or `to`.
    std::uint32_t next(std::uint32_t from, std::uint32_t to) const {
        std::uint32_t found = to;
        for_each_word(from, to, [&](std::uint32_t base, std::uint64_t w) {
            if (w == 0) return true;
            found = base + static_cast<std::uint32_t>(std::countr_zero(w));
            return false;
        });
        return found;
    }
    // One past the last set bit in [from, to), or `from`.
    std::uint32_t end_of_set(std::uint32_t from, std::uint32_t to) const {
        if (from >= to) return from;
        const std::uint32_t first = from / 64;
        for (std::uint32_t k = (to - 1) / 64 + 1; k-- > first;) {
            std::uint64_t w = words_[k];
            if (k == first) w &= ~std::uint64_t(0) << (from % 64);
            if (k == (to - 1) / 64 && to % 64 != 0) w &= ~(~std::uint64_t(0) << (to % 64));
            if (w != 0) return k * 64 + 64 - static_cast<std::uint32_t>(std::countl_zero(w));
        }
        return from;
    }
    // f(i) for the set bits i in [from, to), ascending, while f returns true; false if stopped.
    template <class F> bool for_each_set(std::uint32_t from, std::uint32_t to, F&& f) const {
        return for_each_word(from, to, [&](std::uint32_t base, std::uint64_t w) {
            for (; w != 0; w &= w - 1)
                if (!f(base + static_cast<std::uint32_t>(std::countr_zero(w)))) return false;
            return true;
        });
    }

  private:
    // f(index of bit 0, the word's bits within [from, to)) per word
    template <class F> bool for_each_word(std::uint32_t from, std::uint32_t to, F&& f) const {
        if (from >= to) return true;
        std::uint32_t k = from / 64;
        const std::uint32_t last = (to - 1) / 64;
        for (; k <= last; ++k) {
            std::uint64_t w = words_[k];
            if (k == from / 64) w &= ~std::uint64_t(0) << (from % 64);
            if (k == last && to % 64 != 0) w &= ~(~std::uint64_t(0) << (to % 64));
            if (!f(k * 64, w)) return false;
        }
        return true;
    }

    PageArray<std::uint64_t> words_;
};

// One event's list: its stored part (ascending), then the races of its run that give the
// dependence (their b's, ascending, all above the stored part: the stored part is below the
// event, or the whole list when there is no run).
struct DependenceList {
    const std::uint32_t* stored_begin;
    const std::uint32_t* stored_end;
    const std::uint32_t* run; // b's of the event's run, run[0] is race `first`
    std::uint32_t first, length;
    const RaceBits* gives; // by race

    bool empty() const {
        return stored_begin == stored_end &&
               (length == 0 || gives->count(first, first + length) == 0);
    }
    [[gnu::always_inline]] bool contains(EventId y) const {
        if (length == 0 || y.value < run[0])
            return std::binary_search(stored_begin, stored_end, y.value);
        const std::uint32_t* at = std::lower_bound(run, run + length, y.value);
        return at != run + length && *at == y.value &&
               (*gives)[first + static_cast<std::uint32_t>(at - run)];
    }
    // Whether f(EventId) holds for an entry.
    template <class F> bool any(F&& f) const {
        for (const std::uint32_t* e = stored_begin; e != stored_end; ++e)
            if (f(EventId(*e))) return true;
        return !gives->for_each_set(first, first + length,
                                    [&](std::uint32_t i) { return !f(EventId(run[i - first])); });
    }
    // f(EventId) for every entry, ascending.
    template <class F> void for_each(F&& f) const {
        for (const std::uint32_t* e = stored_begin; e != stored_end; ++e)
            f(EventId(*e));
        gives->for_each_set(first, first + length, [&](std::uint32_t i) {
            f(EventId(run[i - first]));
            return true;
        });
    }
};

// The lists of both kinds: one pass over the races finds which directions every race gives
// for both kinds, and counts the transposed ones; select() then stores one kind's transposed
// races in a second pass, reusing the storage of the other kind (fresh memory is what the
// stages spend most on: huge_pages.hpp). The lists read `conflicts.races` in place: valid while
// it is unchanged.
class DirectDependenceLists {
  public:
    DirectDependenceLists(const TemporalGraph& g, const UnorderedConflicts& conflicts,
                          const EventClocks& clocks);

    // The lists of one kind (targets, sources); the other kind's are gone.
    void select(DependenceKind kind);

    // x's targets: the y with a direct dependence x -> y, ascending.
    DependenceList targets(EventId x) const { return list(out_, x); }
    // y's sources, ascending.
    DependenceList sources(EventId y) const { return list(symmetric() ? out_ : in_, y); }
    // Whether every race gives a dependence both ways (shared data, unless the complete mode's
    // clocks rule a direction out): each event's sources are its targets, one set of lists.
    bool symmetric() const { return given_[index(kind_)] == 2 * dependence_pairs(); }
    // Complete mode: per race whether its events overlapped in time (both directions
    // allowed), as the bits by race of the results' overlap column. Read after the searches:
    // the lists are unusable afterwards (the bits are the shared-data ones, taken over).
    RaceBits take_overlap();
    // Events whose atomic-only pairs the sweep did not all keep (UnorderedConflicts).
    const std::vector<bool>& approximated() const { return conflicts_.approximated; }
    // Event numbers stored (the rest is read in place).
    std::size_t stored() const {
        return out_.offsets.back() + (symmetric() ? 0 : in_.offsets.back());
    }

  private:
    // One direction of the selected kind: per event its stored entries (CSR), per race whether
    // it gives the dependence from its run's event (a -> b by source, b -> a by target).
    struct Direction {
        std::vector<std::uint32_t> offsets;
        PageArray<std::uint32_t> stored; // on reused pages, and not zeroed: select() fills it
        const RaceBits* gives = nullptr;
    };
    // What the first pass found for one kind and direction: per race its bit.
    struct Found {
        RaceBits gives;
    };
    static std::size_t index(DependenceKind kind) {
        return kind == DependenceKind::SharedData ? 0 : 1;
    }
    std::uint64_t dependence_pairs() const {
        return std::uint64_t(conflicts_.races.size()) + conflicts_.atomic_only.size();
    }
    DependenceList list(const Direction& d, EventId x) const {
        return {d.stored.data() + d.offsets[x.value],
                d.stored.data() + d.offsets[x.value + 1],
                run_b_ + run_first_[x.value],
                run_first_[x.value],
                run_length_[x.value],
                d.gives};
    }
    void find_by_runs();
    void select_by_dependences(DependenceKind kind);

    const TemporalGraph& g_;
    const UnorderedConflicts& conflicts_;
    const EventClocks& clocks_;
    bool by_runs_; // no atomic-only pairs to merge into the races' order
    // per event: its run in the race list (length 0: none, and every list stored whole)
    std::vector<std::uint32_t> run_first_, run_length_;
    const std::uint32_t* run_b_ = nullptr; // the b column
    Found found_[2][2];                    // [kind][by source, by target]
    // per event its transposed entries, [2 kind + direction] as found_ (one cache line a race)
    std::vector<std::array<std::uint32_t, 4>> transposed_;
    std::uint64_t given_[2] = {0, 0}; // dependences per kind
    DependenceKind kind_ = DependenceKind::SharedData;
    Direction out_, in_;
    RaceBits none_; // all clear: the lists stored whole
};

} // namespace firstrace
