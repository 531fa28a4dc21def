// The apparent-race sweep's partners by bitmap where they are dense (issue 14, DESIGN-NOTES
// "One visit a race in the sweep").
//
// The sweep (apparent_races.cpp) visits, for an event x, each incidence of another slot inside
// x's window on each segment x touches: a pair of events that shares k variables is visited k
// times (fork/join waves: ~3.6 visits a race). Where a slot's incidences on a segment (a group)
// are dense in their span of ranks, the group is kept as two bitmaps by rank — the events that
// read it and those that write it — and x ORs the words of its window into three accumulators
// per rank: visited, a-writes-b-reads, b-writes-a-reads. Its partners of that slot are then the
// set bits, each met once whatever the number of segments it shares with x.
//
// Only groups without atomic accesses: for a plain y the flags of flags_of() are, whatever x's
// bits, 1 iff x writes and y reads, 2 iff x reads and y writes, and 4 (a data race) iff the pair
// is visited at all (x writes, or y writes) — three ORs of the two bitmaps.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "conflict_rule.hpp"

namespace firstrace {

// When a group is dense enough for a bitmap: at least `min_incidences` incidences, and a span of
// at most `max_ranks_per_incidence` ranks per incidence (2 bits a rank: with the default 16, at
// most 32 bits per incidence, less than the incidence arrays' 40). Tests set both to force
// bitmaps on every plain group or on none.
struct DenseGroupRule {
    std::uint32_t min_incidences = 16;
    std::uint32_t max_ranks_per_incidence = 16;
    // The sweep keeps no group records for a segment of at most this many incidences, none
    // atomic and no group dense by the rule above (apparent_races.cpp): its groups are found
    // as it is read. Tests set 0 (records everywhere) or the maximum.
    std::uint32_t max_implicit_incidences = 64;
    // An event lists its windows in every slot first when its segments without records hold
    // at least this many incidences per slot (0: always, the maximum: never; the same visits).
    std::uint32_t window_list_factor = 4;
    // The sweep keeps of each event's ranges only the granules of 2^bits bytes that two slots
    // touch, one writing (shared_granules.hpp; 64: all bytes). Tests set 0, 3 and 64.
    std::uint32_t shared_granule_bits = 12;
    bool dense(std::uint32_t count, std::uint32_t first_rank, std::uint32_t last_rank) const {
        return count >= min_incidences && std::uint64_t(last_rank - first_rank) + 1 <=
                                              std::uint64_t(count) * max_ranks_per_incidence;
    }
};

// Readers and writers bitmaps of the dense groups, built when first asked for (a group no
// window reaches costs nothing).
class DenseGroupBitmaps {
  public:
    struct Span {
        std::uint32_t word_first; // word of the group's first rank (rank / 64)
        std::uint32_t words;
    };

    // Builds the bitmaps of a group of `count` incidences, ranks ascending, given as
    // rank_at(i) and access_at(i) for i in [0, count); returns its id. Each group has its own
    // block: no copies as the bitmaps grow in number.
    template <class RankAt, class AccessAt>
    std::uint32_t build(std::uint32_t count, RankAt rank_at, AccessAt access_at) {
        const std::uint32_t word_first = rank_at(0) / 64;
        const std::uint32_t words = rank_at(count - 1) / 64 + 1 - word_first;
        blocks_.push_back(std::make_unique<std::uint64_t[]>(2 * std::size_t(words)));
        spans_.push_back({word_first, words});
        std::uint64_t* readers = blocks_.back().get();
        std::uint64_t* writers = readers + words;
        for (std::uint32_t i = 0; i < count; ++i) {
            const std::uint32_t rank = rank_at(i);
            const std::uint64_t bit = std::uint64_t(1) << (rank & 63);
            const std::uint8_t access = access_at(i);
            if (access & kAnyRead) readers[rank / 64 - word_first] |= bit;
            if (access & kAnyWrite) writers[rank / 64 - word_first] |= bit;
        }
        return static_cast<std::uint32_t>(spans_.size() - 1);
    }
    const Span& span(std::uint32_t id) const { return spans_[id]; }
    const std::uint64_t* readers(std::uint32_t id) const { return blocks_[id].get(); }
    const std::uint64_t* writers(std::uint32_t id) const {
        return blocks_[id].get() + spans_[id].words;
    }

  private:
    std::vector<Span> spans_;
    std::vector<std::unique_ptr<std::uint64_t[]>> blocks_; // per group: readers, then writers
};

// Words [first, last) of the accumulators below.
struct WordRange {
    std::uint32_t first = 0, last = 0;
    void join(const WordRange& other) {
        first = std::min(first, other.first);
        last = std::max(last, other.last);
    }
};

// One event x's partners from dense groups, by rank (any numbering in which the groups' and the
// windows' are the same and a window is a range): OR'd in per (segment, group) inside x's
// window of the group's slot, read out once per window. Only the bits of windows are ever set,
// and reading a window out clears them (windows of two slots may share a word at their ends).
class WindowPartnerWords {
  public:
    explicit WindowPartnerWords(std::uint32_t ranks) : words_((std::size_t(ranks) + 63) / 64) {}

    // ORs group `id`'s partners of an access `x_access` among the ranks [lo, hi).
    // Returns the words it ORed into (none: first == last).
    WordRange add(const DenseGroupBitmaps& bitmaps, std::uint32_t id, std::uint8_t x_access,
                  std::uint32_t lo, std::uint32_t hi) {
        if (lo >= hi) return {};
        const DenseGroupBitmaps::Span& span = bitmaps.span(id);
        const std::uint32_t first = std::max(lo / 64, span.word_first);
        const std::uint32_t last = std::min((hi - 1) / 64 + 1, span.word_first + span.words);
        if (first >= last) return {};
        const std::uint64_t* readers = bitmaps.readers(id) - span.word_first;
        const std::uint64_t* writers = bitmaps.writers(id) - span.word_first;
        const bool x_writes = (x_access & kAnyWrite) != 0, x_reads = (x_access & kAnyRead) != 0;
        for (std::uint32_t w = first; w < last; ++w) {
            const std::uint64_t mask = window_mask(w, lo, hi);
            const std::uint64_t r = readers[w] & mask, wr = writers[w] & mask;
            Word& acc = words_[w];
            if (x_writes) {
                acc.visited |= r | wr;
                acc.a_writes_b_reads |= r;
            } else {
                acc.visited |= wr;
            }
            if (x_reads) acc.b_writes_a_reads |= wr;
        }
        return {first, last};
    }

    // f(rank, flags) for every partner in [lo, hi) in rank order, flags as flags_of() gives them
    // (4 | 1 a writes b reads | 2 b writes a reads); clears them. `words`: those add() returned
    // for the window (the others hold nothing of it).
    template <class F> void drain(std::uint32_t lo, std::uint32_t hi, WordRange words, F&& f) {
        for (std::uint32_t w = words.first; w < words.last; ++w) {
            // another slot's window may share the word at either end: its bits stay
            const std::uint64_t mask = window_mask(w, lo, hi);
            Word& acc = words_[w];
            for (std::uint64_t bits = acc.visited & mask; bits != 0; bits &= bits - 1) {
                const int b = std::countr_zero(bits);
                const std::uint8_t flags =
                    static_cast<std::uint8_t>(4 | ((acc.a_writes_b_reads >> b) & 1) |
                                              (((acc.b_writes_a_reads >> b) & 1) << 1));
                f(w * 64 + static_cast<std::uint32_t>(b), flags);
            }
            acc.visited &= ~mask;
            acc.a_writes_b_reads &= ~mask;
            acc.b_writes_a_reads &= ~mask;
        }
    }

  private:
    struct Word {
        std::uint64_t visited = 0, a_writes_b_reads = 0, b_writes_a_reads = 0;
    };
    // The bits of word w that are ranks in [lo, hi).
    static std::uint64_t window_mask(std::uint32_t w, std::uint32_t lo, std::uint32_t hi) {
        std::uint64_t mask = ~std::uint64_t(0);
        if (w == lo / 64) mask &= ~std::uint64_t(0) << (lo & 63);
        if (w == (hi - 1) / 64) mask &= ~std::uint64_t(0) >> (63 - ((hi - 1) & 63));
        return mask;
    }
    std::vector<Word> words_;
};

} // namespace firstrace
