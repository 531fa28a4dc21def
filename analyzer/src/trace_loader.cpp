#include <filesystem>

#include "firstrace/errors.hpp"
#include "firstrace/trace_loader.hpp"

#ifdef __GLIBC__ // defined by the C++ headers above
#include <malloc.h>
#endif

namespace firstrace {

Trace load_trace(const std::string& path, const ProgressCallback& progress) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status))
        throw InputError(path, 0, "no such file or directory");
    // Out of memory is reported naming the trace by the command line (InputInProgress in
    // analyzer/tool/input_in_progress.hpp), one message for every stage.
    Trace trace = std::filesystem::is_directory(status) ? read_firstrace_trace(path, progress)
                                                        : read_std_trace(path, progress);
#ifdef __GLIBC__
    // What the reader freed (its tables, the arrays grown by doubling, the decompressed
    // chunks) stays in the heap, counted in the resident set under the analysis' large
    // arrays, which are mapped afresh: give the free pages back (glibc only).
    malloc_trim(0);
#endif
    return trace;
}

} // namespace firstrace
