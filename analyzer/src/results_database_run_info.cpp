// What a run record says about the traced execution, taken from the trace directory's
// metadata file (see trace_format.hpp): program, arguments, start time, host.
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "firstrace/results_database.hpp"
#include <firstrace/trace_format.hpp>

namespace firstrace {
namespace {

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string percent_decode(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && hex_value(s[i + 1]) >= 0 &&
            hex_value(s[i + 2]) >= 0) {
            out += static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

// "1763809400.123456789" (unix seconds) -> "2025-11-22T11:03:20Z".
std::optional<std::string> iso8601(const std::string& unix_time) {
    std::istringstream in(unix_time);
    long long seconds = 0;
    if (!(in >> seconds) || seconds < 0) return std::nullopt;
    const std::time_t t = static_cast<std::time_t>(seconds);
    std::tm tm{};
    if (!gmtime_r(&t, &tm)) return std::nullopt;
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return std::string(buf);
}

} // namespace

RunInfo run_info_for(const Trace& trace) {
    RunInfo info;
    std::error_code ec;
    if (!std::filesystem::is_directory(trace.path, ec)) return info;
    std::ifstream in(std::filesystem::path(trace.path) / format::kMetadataFile);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string key, value;
        fields >> key >> value;
        if (key == "program")
            info.program = percent_decode(value);
        else if (key == "arg")
            info.arguments.push_back(percent_decode(value));
        else if (key == "host")
            info.host = percent_decode(value);
        else if (key == "start-time")
            info.started_at = iso8601(value);
    }
    return info;
}

} // namespace firstrace
