// The program's ThreadSanitizer run-time configuration, as the tracer kept it in the trace
// (trace_format.hpp, metadata keys tsan-*; TraceMetadata): what a TSan user set decides what
// `analyze` reports, as it decides what TSan reports (README "What the runtime understands").
#pragma once

#include <string>
#include <vector>

#include "firstrace/trace_metadata.hpp"
#include "firstrace/triage_report.hpp"

namespace firstrace {

struct TsanConfiguration {
    // report_bugs=0: TSan reports nothing.
    bool report_bugs = true;
    // ignore_noninstrumented_modules=1: what the runtime's interceptors do for calls from
    // modules without ThreadSanitizer instrumentation is ignored (as a called_from_lib
    // suppression of each such module).
    bool ignore_noninstrumented_modules = false;
    // The suppressions= file's, then __tsan_default_suppressions()'s (TSan's order), each named
    // by its source; the rules count their hits.
    std::vector<Suppressions> suppressions;
    // What firstrace did not apply, one line each (an unreadable file, a malformed line).
    std::vector<std::string> warnings;
    // Whether it changes the reported races.
    bool filters() const;
};

// The configuration `metadata` records (an empty one when it records none). Flags are read as
// TSan reads them: __tsan_default_options() first, TSAN_OPTIONS overriding (tsan_flags.hpp).
// Suppressions TSan would refuse (a malformed line) are not applied and named in `warnings`.
TsanConfiguration tsan_configuration(const TraceMetadata& metadata);

} // namespace firstrace
