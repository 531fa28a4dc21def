// The steps of the trace's end (rt_exit.cpp) that an exec's finish (rt_exec_finish.cpp) shares.
#pragma once

#include "rt_internal.hpp"

namespace frt {

// Claims the end of the trace: false when it is not this process's to end (a copy made without
// fork: the runtime is disabled in it) or when it has ended or is ending.
bool begin_trace_end();
// Writes the complete records of every other registered thread (those `completed` accepts are
// skipped: they wrote their own) and marks it abandoned; returns how many there were.
u32 flush_running_threads(ThreadState* self, bool (*completed)(const ThreadState*));
// The module lines (unless a thread that may hold the loader lock cannot run), the end line, the
// unused spare streams removed, the trace named on stderr (announce); the state Finished.
void end_trace(const char* how, long value, u32 running, bool write_module_lines, bool announce);
// After an exec that failed (its finish resumable): the spares made again, the trace open.
void reopen_trace_end();

} // namespace frt
