// What a run record says about the traced execution: the trace's metadata (program,
// arguments, start time, host), as the reader parsed it.
#include "firstrace/results_database.hpp"

namespace firstrace {

RunInfo run_info_for(const Trace& trace) {
    RunInfo info;
    if (!trace.metadata) return info;
    const TraceMetadata& meta = *trace.metadata;
    if (!meta.program.empty()) info.program = meta.program;
    info.arguments = meta.args;
    if (!meta.host.empty()) info.host = meta.host;
    info.started_at = meta.start_time_iso8601();
    return info;
}

} // namespace firstrace
