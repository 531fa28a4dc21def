// The nested traces of a trace directory (firstrace/process_traces.hpp).
#include "firstrace/process_traces.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <firstrace/trace_format.hpp>
#include <system_error>
#include <tuple>

namespace firstrace {
namespace {

namespace fs = std::filesystem;

struct Nested {
    unsigned long long pid = 0;
    std::string started_by;
    fs::path path;
};

// A directory named <prefix><decimal pid> holding a metadata file is the trace of a process.
bool nested_trace(const fs::path& dir, const char* prefix, Nested& out) {
    const std::string name = dir.filename().string();
    const std::string_view p(prefix);
    if (name.size() <= p.size() || name.compare(0, p.size(), p) != 0) return false;
    const char* first = name.data() + p.size();
    const char* last = name.data() + name.size();
    const auto [end, error] = std::from_chars(first, last, out.pid);
    std::error_code ec;
    if (error != std::errc() || end != last || !fs::is_directory(dir, ec) ||
        !fs::exists(dir / format::kMetadataFile, ec))
        return false;
    out.started_by = std::string(p.substr(0, p.size() - 1));
    out.path = dir;
    return true;
}

void add_nested(const fs::path& dir, std::vector<ProcessTrace>& out) {
    std::vector<Nested> found;
    std::error_code ec;
    for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator();
         it.increment(ec)) {
        Nested n;
        if (nested_trace(it->path(), format::kForkPrefix, n) ||
            nested_trace(it->path(), format::kExecPrefix, n))
            found.push_back(std::move(n));
    }
    std::sort(found.begin(), found.end(), [](const Nested& a, const Nested& b) {
        // a fork child's fork-<pid> before its exec'd program's exec-<pid>
        return std::tie(a.pid, b.started_by) < std::tie(b.pid, a.started_by);
    });
    for (const Nested& n : found) {
        out.push_back({n.path.string(), n.started_by});
        add_nested(n.path, out);
    }
}

} // namespace

bool is_process_trace_directory(const std::string& dir) {
    Nested n;
    return nested_trace(dir, format::kForkPrefix, n) || nested_trace(dir, format::kExecPrefix, n);
}

std::vector<ProcessTrace> process_traces(const std::string& path) {
    std::vector<ProcessTrace> out{{path, ""}};
    std::error_code ec;
    if (fs::is_directory(path, ec)) add_nested(path, out);
    return out;
}

} // namespace firstrace
