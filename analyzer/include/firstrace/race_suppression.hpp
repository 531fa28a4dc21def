// The races a program's ThreadSanitizer configuration hides (tsan_configuration.hpp), taken out
// of an analysis result before any output is made: the text report, JSON, the results database
// and everything `report` derives from it then show the same races.
#pragma once

#include <cstdint>
#include <iosfwd>

#include "firstrace/analysis_result.hpp"
#include "firstrace/model.hpp"
#include "firstrace/tsan_configuration.hpp"

namespace firstrace {

// Removes from `result` the races `tsan` suppresses (every race with report_bugs=0) and
// returns how many. The races left keep their order and are renumbered from 0; partitions left
// without a race are dropped and the others renumbered (first partitions first, then in their
// order), a partition is first when no partition keeping a race is before it (hidden races
// are looked through, as `report` does for suppressed races: report_filter.cpp), and the
// counts are those of the races left.
std::uint64_t suppress_races(const Trace& trace, AnalysisResult& result,
                             const TsanConfiguration& tsan);

// What TSan prints with print_suppressions=1, after the report: "ThreadSanitizer: Matched N
// suppressions" in firstrace's words, one line per rule that suppressed a race (nothing when
// none did), and a line for report_bugs=0.
void write_suppression_summary(std::ostream& out, const TsanConfiguration& tsan,
                               std::uint64_t suppressed);

} // namespace firstrace
