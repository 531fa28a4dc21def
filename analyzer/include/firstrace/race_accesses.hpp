// What a race conflicts on, recomputed from its two events' access sets (issue 14): the
// analysis keeps a race as its event pair and a few flags (Race, a few tens of bytes), since
// dense traces have millions of races; a report or the results database asks here for the
// racing bytes and the access sites touching them, one race at a time. This is the one
// definition of a race's conflicts and sites: every report format and the database writer
// read them from here.
#pragma once

#include <cstdint>
#include <vector>

#include "firstrace/analysis_result.hpp"
#include "firstrace/model.hpp"

namespace firstrace {

struct RaceAccesses {
    // The bytes (STD: variable ids) where the two events' accesses race (Def 4.4 with the
    // conflict rule of DESIGN-NOTES "Atomic and plain accesses": a write and another access,
    // not both atomic; storage private to both processes excluded, Trace::private_to_both),
    // as maximal intervals, ascending.
    std::vector<Interval> conflicts;
    // The data access sites (plain or atomic; indices into Trace::sites) of event a, resp. b,
    // with a range overlapping the conflicts, ascending.
    std::vector<std::uint32_t> sites_a;
    std::vector<std::uint32_t> sites_b;
};

// Computes RaceAccesses race by race, reusing its buffers: no allocation per race once they
// have grown. Each event's accesses are normalized once (its pieces sorted, its bytes as
// disjoint intervals with the OR of their access bits) and kept in a small cache: races come
// sorted by (a, b), so a is the same for runs of races and the b events recur. A race then
// costs a merge of the two events' intervals, linear, with no sort (issue 14: the sort of both
// events' ranges per race was most of the text report's time on long events). Two processes
// of one OS thread (private storage cuts the segments per pair) take the per-pair path.
class RaceAccessFinder {
  public:
    explicit RaceAccessFinder(const Trace& trace) : trace_(trace) {} // trace outlives this
    // The accesses of race (a, b); valid until the next call.
    const RaceAccesses& of(const EventRef& a, const EventRef& b);
    const RaceAccesses& of(const Race& race) { return of(race.a, race.b); }

  private:
    struct Piece {
        std::uint64_t lo, hi;
        std::uint32_t site;
        std::uint8_t access; // conflict_rule.hpp's SegmentAccess
        bool side_b;
    };
    // One event's accesses, normalized: pieces sorted by lo; bytes as disjoint ascending
    // intervals, each with the OR of the access bits of the pieces covering it.
    struct EventAccesses {
        EventRef event;
        std::vector<Piece> pieces;
        std::vector<Interval> ranges;
        std::vector<std::uint8_t> access;
    };
    const EventAccesses& accesses_of(const EventRef& e);
    const RaceAccesses& of_one_thread(const EventRef& a, const EventRef& b);

    const Trace& trace_;
    std::vector<Piece> pieces_;
    std::vector<std::uint64_t> bounds_;
    std::vector<std::uint8_t> access_a_, access_b_; // per segment between bounds
    static constexpr std::size_t kCacheSlots = 256;
    std::vector<EventAccesses> cache_; // direct-mapped by event
    std::size_t cached_pieces_ = 0;    // bound on the cache's memory
    RaceAccesses out_;
};

// RaceAccessFinder(trace).of(race), for one race.
RaceAccesses race_accesses(const Trace& trace, const Race& race);

} // namespace firstrace
