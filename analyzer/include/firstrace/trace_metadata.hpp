// The metadata file of a trace directory (format: tracer/include/firstrace/trace_format.hpp),
// parsed once by the reader and carried in the model (Trace::metadata), so that nothing reopens
// the trace directory later.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace firstrace {

// A module (executable or shared library) loaded in the traced process.
struct LoadedModule {
    std::uint64_t bias = 0; // load bias: file address = pc - bias
    std::uint64_t lo = 0;   // mapped range [lo, hi)
    std::uint64_t hi = 0;
    std::string path;
};

struct TraceMetadata {
    std::uint32_t version = 0;
    std::string tool_version;
    std::string program;
    std::vector<std::string> args;
    std::uint64_t pid = 0;
    std::string host;
    std::string start_time; // unix seconds.nanoseconds, as written
    bool instrumented = false;
    std::vector<LoadedModule> modules; // distinct (bias, path)
    bool ended = false;                // an `end` line: the program finished writing the trace
    std::string end_how;               // exit | _exit | signal
    long end_value = 0;
    long end_running = 0;
    std::string status_how; // from `firstrace record`: exit | signal (empty: not recorded)
    long status_value = 0;
    // A `write-error` line: the tracer could not write this stream (errno); it ends early.
    std::optional<std::uint64_t> write_error_stream;
    int write_error_errno = 0;
    // `not-started` lines: threads created but not started when the trace ended (tracer ids).
    std::vector<std::uint64_t> not_started;
    // The program's ThreadSanitizer settings (tsan-* lines; tsan_configuration.hpp reads them).
    std::optional<std::string> tsan_default_options;      // what __tsan_default_options() returned
    std::optional<std::string> tsan_options;              // TSAN_OPTIONS
    std::optional<std::string> tsan_default_suppressions; // __tsan_default_suppressions()
    std::string tsan_suppressions_file;                   // the suppressions= file, as resolved
    std::string tsan_suppressions;                        // its content
    int tsan_suppressions_errno = 0;                      // it could not be read (errno)

    // "2025-11-22T11:03:20Z" from start_time, when it is valid.
    std::optional<std::string> start_time_iso8601() const;
};

// Parses a metadata file; throws InputError naming `path` (and the line) when it is not one or
// was written by another format version.
TraceMetadata parse_trace_metadata(std::istream& in, const std::string& path);
// Reads `directory`/metadata.
TraceMetadata read_trace_metadata(const std::string& directory);
// The `status` line `firstrace record` appends once the program has ended.
std::string trace_status_line(bool signaled, int value);

} // namespace firstrace
