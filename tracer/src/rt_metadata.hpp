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
// True in the process whose trace the directory is (the one that opened it, or the fork child
// that entered its fork-<pid> directory). A child made without fork -- glibc's clone() without
// CLONE_VM, a raw fork system call without the hooks -- shares the parent's open stream files
// and must not write its exit into them.
bool owns_trace();
// Appends l and a newline to the metadata file.
void write_metadata_line(Line& l);
// One `module` line per loaded object (at start and again at exit: dlopen'ed ones too).
void write_modules();
// The `module` line of the loaded object whose base address (link map l_addr) is `base`.
void write_module_at(u64 base);
// Fork child: moves to the trace directory fork-<pid> inside the parent's, with a new metadata
// file; false when it cannot be created. Then write_fork_header().
bool enter_fork_directory();
void write_fork_header();
// The first failed write of a stream (disk full, I/O error, file size limit): said at once on
// stderr and, before the end line, in the metadata (`write-error <stream> <errno>`), so that
// `firstrace record` fails and the reader names the cause (issue 13).
void note_stream_write_failed(u32 stream, int error);
// A thread created but not started when the trace ended (rt_thread_start_args.cpp).
void write_not_started(u32 pid);
// The last line: how the process ended, its status or signal, the threads still running.
void write_end_line(const char* how, long value, u32 running);
// The metadata file's size (-1: none), and the file cut back to such a size: the end line of an
// exec that failed is taken back (rt_exec_finish.cpp).
long metadata_size();
void retract_metadata_to(long size);
// "trace written to DIR" on stderr, unless running under `firstrace record`.
void announce_trace();

} // namespace frt
