#include <filesystem>
#include <new>

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
    // Out of memory is said naming the trace, in one line like every input error (issue 13):
    // what was read so far is freed by the unwinding, so the message can be built.
    try {
        Trace trace = std::filesystem::is_directory(status) ? read_firstrace_trace(path)
                                                            : read_std_trace(path, progress);
#ifdef __GLIBC__
        // What the reader freed (its tables, the arrays grown by doubling, the decompressed
        // chunks) stays in the heap, counted in the resident set under the analysis' large
        // arrays, which are mapped afresh: give the free pages back (glibc only).
        malloc_trim(0);
#endif
        return trace;
    } catch (const std::bad_alloc&) {
        throw InputError(path, 0,
                         "out of memory while reading the trace (it needs more than this "
                         "process may allocate)");
    }
}

} // namespace firstrace
