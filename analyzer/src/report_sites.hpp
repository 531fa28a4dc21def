// The one definition of a race site's instances (DESIGN "Outputs"), on the trace: used by
// make_report_model (every report format) and the results database writer (the GUI).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "firstrace/analysis_result.hpp"
#include "firstrace/model.hpp"
#include "firstrace/race_accesses.hpp"
#include "firstrace/report_model.hpp"
#include "report_held_locks.hpp"
#include "report_memory_names.hpp"

namespace firstrace {

// An access site of event a and one of event b whose byte ranges intersect (within the race's
// conflicting bytes), at least one writing and not both atomic: one instance of a race site.
struct ConflictingSitePair {
    std::uint32_t a = 0;          // index into RaceAccesses::sites_a
    std::uint32_t b = 0;          // index into RaceAccesses::sites_b
    std::vector<Interval> shared; // the bytes (STD: variable ids) both touch, sorted, disjoint
};

// Buffers of for_each_conflicting_site_pair, reused across races (no allocation per pair).
struct ConflictScratch {
    std::vector<Interval> both, shared;
};

// The ranges of one access site, indexed from 0 (Trace::ranges is read by value).
struct SiteRanges {
    const RangeTable& table;
    std::uint32_t first = 0;
    Interval operator[](std::size_t i) const { return table[first + i]; }
};

// Appends a ∩ b (both sorted, disjoint interval lists: pointers or SiteRanges) to out.
template <class A, class B>
void intersect_ranges(const A& a, std::size_t na, const B& b, std::size_t nb,
                      std::vector<Interval>& out) {
    std::size_t i = 0, j = 0;
    while (i < na && j < nb) {
        const Interval x = a[i], y = b[j];
        const std::uint64_t lo = std::max(x.lo, y.lo);
        const std::uint64_t hi = std::min(x.hi, y.hi);
        if (lo < hi) out.push_back({lo, hi});
        if (x.hi < y.hi)
            ++i;
        else
            ++j;
    }
}

// Calls f(index into sites_a, index into sites_b, shared bytes) for every conflicting site pair
// of a race with accesses `race` (RaceAccessFinder), in (a, b) order: the one definition of a
// race site instance. Cost: the ranges of each pair of the race's sites, merged once.
template <class F>
void for_each_conflicting_site_pair(const Trace& trace, const RaceAccesses& race,
                                    ConflictScratch& scratch, F&& f) {
    for (std::uint32_t i = 0; i < race.sites_a.size(); ++i) {
        const AccessSite x = trace.sites[race.sites_a[i]];
        for (std::uint32_t j = 0; j < race.sites_b.size(); ++j) {
            const AccessSite y = trace.sites[race.sites_b[j]];
            if (!(x.flags & kAccessWrite) && !(y.flags & kAccessWrite)) continue;
            if ((x.flags & kAccessAtomic) && (y.flags & kAccessAtomic)) continue;
            scratch.both.clear();
            intersect_ranges(SiteRanges{trace.ranges, x.first_range}, x.range_count,
                             SiteRanges{trace.ranges, y.first_range}, y.range_count, scratch.both);
            if (scratch.both.empty()) continue;
            // Only the race's conflicting bytes: storage private to both processes is no
            // conflict (Trace::private_to_both) and was left out of race.conflicts.
            scratch.shared.clear();
            intersect_ranges(scratch.both.data(), scratch.both.size(), race.conflicts.data(),
                             race.conflicts.size(), scratch.shared);
            if (!scratch.shared.empty()) f(i, j, scratch.shared);
        }
    }
}

// Every conflicting site pair of a race with accesses `race`, in (a, b) order.
std::vector<ConflictingSitePair> conflicting_site_pairs(const Trace& trace,
                                                        const RaceAccesses& race);

// What a pair conflicts on, as displayed: "X", "ring.tail", "heap block of 24 bytes ...",
// at most three names then "… (N in all)".
std::string shared_variable_name(const Trace& trace, const MemoryNames& names,
                                 const std::vector<Interval>& shared);

// An access site as reports show it: kind, headline location (report_call_stacks.hpp) and call
// stack. Defined in report_model.cpp; the database reader calls it on the stored sites and stacks.
ReportSite make_report_site(const Trace& trace, std::uint32_t site);

// The call stack of a location executing in calling context `context` (either may be kNone),
// with its headline frame. Defined in report_model.cpp; the database reader calls it too.
ReportStack make_report_stack(const Trace& trace, std::uint32_t location, std::uint32_t context);

// The (location, context) an event is shown at: a synchronization event's call, a computation
// event's first access site.
std::pair<std::uint32_t, std::uint32_t> event_origin(const Trace& trace, const Event& event);

// The facts reports show about an event of a race (locks held, the creation of its thread) and
// about a step of an ordering chain, computed once per trace. Defined in report_model.cpp.
class ReportEventFacts {
  public:
    explicit ReportEventFacts(const Trace& trace); // `trace` must outlive this object
    ~ReportEventFacts();
    ReportEvent event(const EventRef& ref) const;
    ReportOrderingStep step(const EventRef& ref, const char* via) const;
    const MemoryNames& names() const { return names_; }
    const HeldLocks& locks() const { return locks_; }
    const std::vector<std::uint32_t>& creators() const { return creators_; }

  private:
    const Trace& trace_;
    MemoryNames names_;
    HeldLocks locks_;
    std::vector<std::uint32_t> creators_; // creation_events(trace)
};

} // namespace firstrace
