// Reading traces: RAPID's STD text format, and the tracer's binary trace directory.
#pragma once

#include <string>

#include "firstrace/analysis.hpp"
#include "firstrace/model.hpp"

namespace firstrace {

// STD text format (`T1|w(V3)|file.c:12`). Throws InputError naming file and line.
Trace read_std_trace(const std::string& path, const ProgressCallback& progress = {});

// The tracer's trace directory (see tracer/ and DESIGN "Inputs"). Throws InputError.
// `progress` hears "reading trace" (the fraction of the stream files read) and "symbolizing".
Trace read_firstrace_trace(const std::string& directory, const ProgressCallback& progress = {});

// Dispatches on what `path` is: a directory is a firstrace trace, a file is STD.
Trace load_trace(const std::string& path, const ProgressCallback& progress = {});

} // namespace firstrace
