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

struct AnalysisOptions {
    // Unset: complete when the trace has clock readings, approximate otherwise.
    std::optional<Ordering> ordering;
    ProgressCallback progress;
    // Work allowed per origin event in the exact transitive-dependence search before it falls
    // back to a conservative superset for that origin.
    std::uint64_t transitive_budget = 4000;
};

AnalysisResult analyze(const Trace& trace, const AnalysisOptions& options = {});

} // namespace firstrace
