// Validation of apparent races (thesis 7.1-7.2.3, Alg 7.5-7.7; DESIGN step 4): G_D gives
// `feasible` (unordered in G_D, Thm 7.1) and the tangles (strongly connected components of G_D
// holding races, Def 7.1); G_E then proves some of the others `feasible-ec` (Thm 7.3).
#pragma once

#include <vector>

#include "dependences.hpp"
#include "firstrace/page_array.hpp"

namespace firstrace {

struct ValidationOutcome {
    PageArray<RaceStatus> status; // per race (on reused pages: reused_pages.hpp)
    // Per race, dense tangle ids (kNone: not tangled); empty when no race is tangled, the
    // common case, which spares a word per race (tens of millions on dense traces).
    PageArray<std::uint32_t> tangle;
    std::uint32_t tangle_count = 0;
};

ValidationOutcome validate_races(const TemporalGraph& g, const ApparentRaceList& races,
                                 const Dependences& shared_data, const Dependences& event_control,
                                 const ProgressCallback& progress, std::uint64_t timestamp_budget);

// G plus dependence edges from_s -> to_f (G_D, G_E).
NodeGraph augmented_graph(const TemporalGraph& g, const std::vector<DependenceEdge>& edges);

} // namespace firstrace
