// What the analysis finds (DESIGN "Analysis pipeline" and "Outputs"): the apparent races with
// their validation status, tangles, and the partitions of the race ordering with their DAG.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "firstrace/model.hpp"

namespace firstrace {

enum class Ordering : std::uint8_t { Approximate, Complete };
const char* to_string(Ordering ordering);

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

// An apparent race: its two events and what the analysis says about it. Dense traces have
// millions of races (quadratic in the events), so a race is this record of a few tens of bytes
// (issue 14); what the events conflict on and the access sites touching it are recomputed from
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

struct Partition {
    std::uint32_t id = 0;
    bool first = false;
    std::vector<std::uint32_t> races; // race ids, ascending
    std::vector<std::uint32_t> after; // partitions directly after this one (Hasse diagram of R̂*)
};

enum class EdgeKind : std::uint8_t {
    Ordering,     // G: process order is implicit; these are the synchronization edges
    SharedData,   // G_D: a_s -> b_f
    EventControl, // G_E: a_s -> b_f
};
const char* to_string(EdgeKind kind);

struct GraphEdge {
    EdgeKind kind = EdgeKind::Ordering;
    EventRef from;
    EventRef to;
    bool transitive = false;
};

struct AnalysisCounts {
    std::uint64_t events = 0;
    std::uint64_t computation_events = 0;
    std::uint64_t accesses = 0;
    std::uint32_t processes = 0;
    std::uint64_t apparent = 0;
    std::uint64_t actual = 0; // complete mode only
    std::uint64_t feasible = 0;
    std::uint64_t feasible_ec = 0;
    std::uint64_t unvalidated = 0;
    std::uint64_t tangles = 0;
    std::uint64_t partitions = 0;
    std::uint64_t first_partitions = 0;
};

struct StageStats {
    std::string name;
    double seconds = 0;
    std::uint64_t peak_rss_bytes = 0;
};

struct AnalysisResult {
    Ordering ordering = Ordering::Approximate;
    std::vector<Race> races;           // index == id
    std::vector<Partition> partitions; // index == id; first partitions first
    std::vector<GraphEdge> edges;      // synchronization, shared-data and event-control edges
    AnalysisCounts counts;
    std::vector<StageStats> stages;
    // Transitive-dependence search (DESIGN-NOTES.md): origins whose exact search hit its budget
    // fall back to a conservative superset of edges; results stay sound.
    std::uint64_t transitive_origins = 0;   // events searched for transitive dependences (D̂ + Ê)
    std::uint64_t transitive_fallbacks = 0; // of which fell back to the conservative superset
};

} // namespace firstrace
