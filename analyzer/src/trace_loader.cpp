#include <filesystem>

#include "firstrace/errors.hpp"
#include "firstrace/trace_loader.hpp"

namespace firstrace {

Trace load_trace(const std::string& path, const ProgressCallback& progress) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status))
        throw InputError(path, 0, "no such file or directory");
    if (std::filesystem::is_directory(status)) return read_firstrace_trace(path);
    return read_std_trace(path, progress);
}

} // namespace firstrace
