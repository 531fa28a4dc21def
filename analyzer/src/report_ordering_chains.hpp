// Why a race of a later partition may be an artifact (thesis ch. 8; issue 12): one race of an
// earlier partition that it is ordered after, and the chain of events that orders them.
//
// Race x = <a,b> R̂-orders race y when both a and b reach one event of y in Ê* (Def 8.1):
// process order, the synchronization edges of G and the direct event-control edges of G_E
// (race_ordering.hpp); an event reaches itself, so a path may be empty (x and y share it). A race y
// outside the first partitions is R̂*-after a race of another partition, and then R̂-after one (the
// last step of the R̂* path that enters y's partition). A backward breadth-first search from each
// event of y over those edges finds the nearest race x of another partition whose two events both
// reach it (then x's partition is before y's) and the shortest paths from them.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "firstrace/analysis_result.hpp"
#include "firstrace/model.hpp"

namespace firstrace {

enum class OrderingVia : std::uint8_t {
    Start,           // the event of the earlier race the chain starts at
    ProgramOrder,    // a later event of the same process (possibly several events later)
    Synchronization, // a synchronization edge of G (release -> acquire, fork -> child, ...)
    EventControl,    // a direct event-control dependence of G_E (Def 7.2)
};
const char* to_string(OrderingVia via);

struct OrderingStep {
    EventRef event;
    OrderingVia via = OrderingVia::Start;
    friend bool operator==(const OrderingStep&, const OrderingStep&) = default;
};

struct OrderedAfter {
    std::uint32_t race = kNone; // the earlier race
    // Two paths to one event of the later race, each beginning with a Start step: from event a
    // of `race`, then from its event b (a path of the Start step alone: that event is the later
    // race's own). Runs of process order are shortened to their ends: each
    // step after a Start is reached from the step before by process order (several events at
    // once) or by one edge.
    std::vector<OrderingStep> chain;
};

class OrderingChains {
  public:
    // `trace` and `result` must outlive this object.
    OrderingChains(const Trace& trace, const AnalysisResult& result);
    // The race `race` is ordered after and the chain; nullopt for races of first partitions
    // and when the searches exceed their budget (kVisitBudget steps for this race, or
    // kTotalBudget for all races asked about so far: a report of millions of races stays
    // linear; the races after that get none). A step is an event visited or a race of it
    // looked at.
    std::optional<OrderedAfter> of(std::uint32_t race) const;

    static constexpr std::uint32_t kVisitBudget = 1u << 22;
    static constexpr std::uint64_t kTotalBudget = std::uint64_t{1} << 28;

  private:
    std::optional<OrderedAfter> search(const Race& y, std::uint32_t target,
                                       std::uint32_t& budget) const;
    std::uint32_t id(const EventRef& e) const { return offset_[e.process] + e.index; }
    const Trace& trace_;
    const AnalysisResult& result_;
    std::vector<std::uint32_t> offset_;                     // process -> id of its first event
    std::vector<EventRef> ref_;                             // id -> event
    std::vector<std::uint32_t> in_begin_;                   // id -> first incoming edge (CSR)
    std::vector<std::pair<std::uint32_t, OrderingVia>> in_; // (source id, kind)
    std::vector<std::uint32_t> races_begin_; // id -> first race with that event (CSR)
    std::vector<std::uint32_t> races_;
    // Breadth-first search state, stamped with the search number (not thread-safe).
    mutable std::vector<std::uint32_t> queued_;
    mutable std::vector<std::uint32_t> reached_;                      // by a non-empty path
    mutable std::vector<std::pair<std::uint32_t, OrderingVia>> next_; // BFS: successor on the path
    mutable std::uint32_t search_ = 0;
    mutable std::uint64_t total_left_ = kTotalBudget;
};

} // namespace firstrace
