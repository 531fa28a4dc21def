// One apparent race as the analysis reports it (DESIGN "Outputs"): its two events, its
// validation status (thesis ch. 7), tangle and partition (ch. 8).
#pragma once

#include <cstdint>
#include <optional>

#include "firstrace/model.hpp"

namespace firstrace {

enum class RaceStatus : std::uint8_t {
    Feasible,    // unordered in G_D (Thm 7.1)
    FeasibleEc,  // ordered in G_D, but G_E has no path a_f -> b_f nor b_f -> a_f (Thm 7.3)
    Unvalidated, // neither
};
const char* to_string(RaceStatus status);

struct EventRef {
    std::uint32_t process = kNone;
    std::uint32_t index = kNone; // position among all events of the process, from 0
    friend bool operator==(const EventRef&, const EventRef&) = default;
    friend auto operator<=>(const EventRef&, const EventRef&) = default;
};

// An apparent race: its two events and what the analysis says about it, as a reader of the
// results sees it. Dense traces have up to 10^8 races (quadratic in the events): the analysis
// keeps them as columns of a few bytes a race (firstrace/race_list.hpp) and makes this record
// when asked; what the events conflict on and the access sites touching it are recomputed from
// the two events when a report or the database asks (firstrace/race_accesses.hpp).
struct Race {
    std::uint32_t id = 0;
    EventRef a; // a.process < b.process
    EventRef b;
    std::optional<std::uint32_t> tangle; // SCC of G_D holding the race, when tangled
    std::uint32_t partition = 0;
    RaceStatus status = RaceStatus::Feasible;
    std::optional<bool> actual; // complete mode: the events overlapped in time
};
static_assert(sizeof(Race) <= 40, "a race record stays a few tens of bytes (issue 14)");

} // namespace firstrace
