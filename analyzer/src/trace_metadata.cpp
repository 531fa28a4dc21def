// The one parser of a trace directory's metadata file (see trace_metadata.hpp).
#include "firstrace/trace_metadata.hpp"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <istream>
#include <sstream>

#include "firstrace/errors.hpp"
#include "input_file.hpp"
#include <firstrace/trace_format.hpp>

namespace firstrace {
namespace {

namespace fmt = firstrace::format;
namespace key = firstrace::format::metadata_key;

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// Inverse of the tracer's percent-escaping (format::needs_escape).
std::string unescape(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && hex_digit(s[i + 1]) >= 0 &&
            hex_digit(s[i + 2]) >= 0) {
            out += static_cast<char>(hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2]));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

std::string escaped_field(std::istringstream& fields) {
    std::string v;
    fields >> v;
    return unescape(v);
}

} // namespace

TraceMetadata parse_trace_metadata(std::istream& in, const std::string& path) {
    TraceMetadata m;
    std::string line;
    std::uint64_t number = 0;
    while (std::getline(in, line)) {
        ++number;
        std::istringstream fields(line);
        std::string k;
        fields >> k;
        if (number == 1) {
            if (k != key::kHeader || !(fields >> m.version))
                throw InputError(path, 1,
                                 std::string("not a firstrace trace (expected '") + key::kHeader +
                                     " VERSION')");
            if (m.version != fmt::kFormatVersion)
                throw InputError(path, 1,
                                 "trace format version " + std::to_string(m.version) +
                                     ", but this firstrace reads version " +
                                     std::to_string(fmt::kFormatVersion) +
                                     " (record the program again with this firstrace)");
            continue;
        }
        if (k == key::kToolVersion) {
            m.tool_version = escaped_field(fields);
        } else if (k == key::kProgram) {
            m.program = escaped_field(fields);
        } else if (k == key::kArg) {
            m.args.push_back(escaped_field(fields));
        } else if (k == key::kPid) {
            fields >> m.pid;
        } else if (k == key::kHost) {
            m.host = escaped_field(fields);
        } else if (k == key::kStartTime) {
            fields >> m.start_time;
        } else if (k == key::kInstrumented) {
            m.instrumented = true;
        } else if (k == key::kModule) {
            LoadedModule mod;
            std::string path_field;
            if (!(fields >> std::hex >> mod.bias >> mod.lo >> mod.hi >> path_field))
                throw InputError(path, number, "malformed module line");
            mod.path = unescape(path_field);
            const bool seen =
                std::any_of(m.modules.begin(), m.modules.end(), [&](const LoadedModule& o) {
                    return o.bias == mod.bias && o.path == mod.path;
                });
            if (!seen) m.modules.push_back(mod);
        } else if (k == key::kEnd) {
            m.ended = true;
            fields >> m.end_how >> m.end_value >> m.end_running;
        } else if (k == key::kStatus) {
            fields >> m.status_how >> m.status_value;
        } else if (k == key::kNotStarted) {
            std::uint64_t pid = 0;
            if (!(fields >> pid)) throw InputError(path, number, "malformed not-started line");
            m.not_started.push_back(pid);
        } else if (k == key::kTsanDefaultOptions) {
            m.tsan_default_options = m.tsan_default_options.value_or("") + escaped_field(fields);
        } else if (k == key::kTsanOptions) {
            m.tsan_options = m.tsan_options.value_or("") + escaped_field(fields);
        } else if (k == key::kTsanDefaultSuppressions) {
            m.tsan_default_suppressions =
                m.tsan_default_suppressions.value_or("") + escaped_field(fields);
        } else if (k == key::kTsanSuppressionsFile) {
            m.tsan_suppressions_file = escaped_field(fields);
        } else if (k == key::kTsanSuppressionsError) {
            if (!(fields >> m.tsan_suppressions_errno))
                throw InputError(path, number, "malformed tsan-suppressions-error line");
            m.tsan_suppressions_file = escaped_field(fields);
        } else if (k == key::kTsanSuppressions) {
            m.tsan_suppressions += escaped_field(fields);
        } else if (k == key::kWriteError) {
            std::uint64_t stream = 0;
            if (!(fields >> stream >> m.write_error_errno))
                throw InputError(path, number, "malformed write-error line");
            m.write_error_stream = stream;
        }
    }
    if (number == 0) throw InputError(path, 0, "empty metadata file");
    return m;
}

TraceMetadata read_trace_metadata(const std::string& directory) {
    const std::filesystem::path path = std::filesystem::path(directory) / fmt::kMetadataFile;
    std::error_code ec;
    if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec)))
        throw InputError(directory, 0,
                         "not a firstrace trace directory (no readable 'metadata' file)");
    // A regular file, not a link, of a sane size: a FIFO or /dev/zero in its place is refused.
    constexpr std::uint64_t kMaxMetadataBytes = 64u << 20;
    std::istringstream in(RegularFile(path.string(), Symlinks::Refuse).read_all(kMaxMetadataBytes));
    return parse_trace_metadata(in, path.string());
}

std::string trace_status_line(bool signaled, int value) {
    return std::string(key::kStatus) + (signaled ? " signal " : " exit ") + std::to_string(value);
}

std::optional<std::string> TraceMetadata::start_time_iso8601() const {
    std::istringstream in(start_time);
    long long seconds = 0;
    if (!(in >> seconds) || seconds < 0) return std::nullopt;
    const std::time_t t = static_cast<std::time_t>(seconds);
    std::tm tm{};
    if (!gmtime_r(&t, &tm)) return std::nullopt;
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return std::string(buf);
}

} // namespace firstrace
