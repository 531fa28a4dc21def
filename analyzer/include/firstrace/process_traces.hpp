// The traces of the processes of one recorded execution: a trace directory holds, besides its
// own process's trace, those of the processes started under it (tracer/include/firstrace/
// trace_format.hpp: fork-<pid> for a fork child, exec-<pid> for an instrumented program exec'd
// by a traced one, directly or through posix_spawn, system, popen), nested.
#pragma once

#include <string>
#include <vector>

namespace firstrace {

struct ProcessTrace {
    std::string path;
    std::string started_by; // "" for the trace given, else "fork" or "exec"
};

// `path` first, then the traces nested in it, depth first, each directory's in the order of
// their process ids (a fork child's exec is inside the fork child's trace or beside it, as the
// tracer placed it). A text trace or a directory without nested traces: `path` alone.
std::vector<ProcessTrace> process_traces(const std::string& path);

// True when `dir` is the trace of a process started under another one: named fork-<pid> or
// exec-<pid> (decimal pid) and holding a metadata file.
bool is_process_trace_directory(const std::string& dir);

} // namespace firstrace
