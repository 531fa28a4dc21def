// What the analysis finds (DESIGN "Analysis pipeline" and "Outputs"): the apparent races with
// their validation status, tangles, and the partitions of the race ordering with their DAG.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "firstrace/model.hpp"
#include "firstrace/race_list.hpp"

namespace firstrace {

enum class Ordering : std::uint8_t { Approximate, Complete };
const char* to_string(Ordering ordering);

// A partition's races are those whose `Race::partition` is its id (the result's race list holds
// that column): a member list per partition was 4 bytes a race of fresh memory on dense traces,
// which the default report never reads. partition_members lists them.
struct Partition {
    std::uint32_t id = 0;
    bool first = false;
    std::uint64_t race_count = 0;     // races in it (at least one)
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
    RaceList races;                    // index == id
    std::vector<Partition> partitions; // index == id; first partitions first
    std::vector<GraphEdge> edges;      // synchronization, shared-data and event-control edges
    AnalysisCounts counts;
    std::vector<StageStats> stages;
    // Transitive-dependence search (DESIGN-NOTES.md): origins whose exact search hit its budget
    // fall back to a conservative superset of edges; results stay sound.
    std::uint64_t transitive_origins = 0;   // events searched for transitive dependences (D̂ + Ê)
    std::uint64_t transitive_fallbacks = 0; // of which fell back to the conservative superset
    // Events that kept only their earliest atomic-only partners (AnalysisOptions::
    // atomic_pair_budget); the origins unordered with them count among the fallbacks.
    std::uint64_t approximated_events = 0;
};

// The races of every partition, ascending, index == partition id: one pass over the races.
std::vector<std::vector<std::uint32_t>> partition_members(const AnalysisResult& result);

} // namespace firstrace
