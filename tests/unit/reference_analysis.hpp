// Brute-force references for every algorithm of the analysis, written from the definitions
// (thesis ch. 6-8, DESIGN "Analysis pipeline") with no timestamps, no compaction and no
// address sweep: reachability by BFS, races by checking all pairs, dependences by enumerating
// chains, R̂* by closing R̂ pairwise. Conflicts byte by byte from the definitions: a write and
// another access not both atomic race; atomic-only conflicts give dependences; bytes private to
// both processes (Trace::private_to_both) do not conflict. Only for small traces.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <vector>

#include "firstrace/analysis_result.hpp"
#include "temporal_graph.hpp"

namespace firstrace::reference {

class Reachability {
  public:
    Reachability(std::uint32_t nodes, const std::vector<Edge>& edges);
    bool reaches(NodeId from, NodeId to) const { return reach_[from].count(to) > 0; } // reflexive
    // Non-empty path.
    bool reaches_nonempty(NodeId from, NodeId to) const;

  private:
    IdVector<NodeId, std::set<NodeId>> succ_;
    IdVector<NodeId, std::set<NodeId>> reach_;
};

struct ReferenceRace {
    EventId a, b;                      // a in the lower process
    std::set<std::uint64_t> conflicts; // addresses
    bool a_ctrl_b = false, b_ctrl_a = false;
    RaceStatus status = RaceStatus::Feasible;
    bool tangled = false;
};

struct ReferenceResult {
    std::vector<ReferenceRace> races; // sorted by (a, b)
    // Unordered pairs whose conflicts are all atomic-atomic (no race, a dependence), sorted.
    std::vector<ReferenceRace> atomic_only;
    // Same-tangle relation between races (indices into races).
    std::vector<std::vector<bool>> same_tangle;
    // Partitions as sets of race indices, which are first, and the direct R̂ DAG.
    std::vector<std::set<std::uint32_t>> partitions;
    std::vector<bool> first;
    std::vector<std::set<std::uint32_t>> after; // partition index -> partition indices
    std::vector<std::uint32_t> partition_of;
    // Reachability in G_D / G_E (full, uncompacted edge sets), for direct checks.
    std::vector<Edge> gd_edges, ge_edges;
};

ReferenceResult analyze(const TemporalGraph& g, Ordering ordering);

} // namespace firstrace::reference
