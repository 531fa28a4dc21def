// The trace directory and its metadata file (rt_metadata.cpp).
#pragma once

#include "rt_system.hpp"

namespace frt {

// At initialisation: creates (or opens) the trace directory of FIRSTRACE_OUTPUT (default
// firstrace.<pid>.trace), refuses one that is not safe, creates the metadata file and writes
// its header. False (after a message on stderr): the process is not traced.
bool open_trace_directory();
// The trace directory, for creating the streams in it.
int trace_directory_fd();
// Appends l and a newline to the metadata file.
void write_metadata_line(Line& l);
// One `module` line per loaded object (at start and again at exit: dlopen'ed ones too).
void write_modules();
// Fork child: moves to the trace directory fork-<pid> inside the parent's, with a new metadata
// file; false when it cannot be created. Then write_fork_header().
bool enter_fork_directory();
void write_fork_header();
// The last line: how the process ended, its status or signal, the threads still running.
void write_end_line(const char* how, long value, u32 running);
// "trace written to DIR" on stderr, unless running under `firstrace record`.
void announce_trace();

} // namespace frt
