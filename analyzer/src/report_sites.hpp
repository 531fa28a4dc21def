// The one definition of a race site's instances (DESIGN "Outputs"), on the trace: used by
// make_report_model (every report format) and the results database writer (the GUI).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "firstrace/analysis_result.hpp"
#include "firstrace/model.hpp"
#include "firstrace/report_model.hpp"
#include "report_held_locks.hpp"
#include "report_memory_names.hpp"

namespace firstrace {

// An access site of event a and one of event b whose byte ranges intersect (within the race's
// conflicting bytes), at least one writing and not both atomic: one instance of a race site.
struct ConflictingSitePair {
    std::uint32_t a = 0;          // index into Race::sites_a
    std::uint32_t b = 0;          // index into Race::sites_b
    std::vector<Interval> shared; // the bytes (STD: variable ids) both touch, sorted, disjoint
};

// Every conflicting site pair of `race`, in (a, b) order. Cost: the ranges of each pair of the
// race's sites, merged once.
std::vector<ConflictingSitePair> conflicting_site_pairs(const Trace& trace, const Race& race);

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
