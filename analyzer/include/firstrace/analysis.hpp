// The whole analysis of one trace: G, apparent races, validation (G_D, G_E) and ordering into
// partitions (thesis ch. 6-8, DESIGN "Analysis pipeline").
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "firstrace/analysis_result.hpp"
#include "firstrace/model.hpp"

namespace firstrace {

// Called with a stage name and the fraction done (0..1) of that stage.
using ProgressCallback = std::function<void(const std::string& stage, double fraction)>;

// 2^26 entries: 256 MiB of vector timestamps per graph.
inline constexpr std::uint64_t kDefaultTimestampBudget = std::uint64_t(1) << 26;

// Atomic-only partners of linked events the apparent-race sweep visits and keeps before it
// keeps only the earliest ones (2^26 pairs: ~0.8 GB).
inline constexpr std::uint64_t kDefaultAtomicPairBudget = std::uint64_t(1) << 26;

struct AnalysisOptions {
    // Unset: complete when the trace has clock readings, approximate otherwise.
    std::optional<Ordering> ordering;
    ProgressCallback progress;
    // Work allowed per origin event in the exact transitive-dependence search before it falls
    // back to a conservative superset for that origin.
    std::uint64_t transitive_budget = 4000;
    // Reachability in G, G_D and G_E: vector timestamps (one entry per strong component and
    // timestamp slot) up to this many entries, above it an index of reachable intervals that
    // grows with the nesting of forks and joins rather than with the width (DESIGN-NOTES
    // "Reachability index"). The results are the same either way.
    std::uint64_t timestamp_budget = kDefaultTimestampBudget;
    // Over this many atomic-only partners of events that conflict with two other processes
    // (a chain of dependences can pass through them), the sweep keeps each event's earliest
    // ones only, and the dependences of every origin unordered with an event that dropped
    // some are the conservative superset (DESIGN-NOTES "Atomic-only pairs over the budget").
    // Races are the same either way.
    std::uint64_t atomic_pair_budget = kDefaultAtomicPairBudget;
};

AnalysisResult analyze(const Trace& trace, const AnalysisOptions& options = {});

} // namespace firstrace
