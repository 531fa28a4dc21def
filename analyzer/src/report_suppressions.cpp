// ThreadSanitizer-style suppression files for `firstrace report --suppressions`.
#include <istream>
#include <sstream>

#include "firstrace/errors.hpp"
#include "firstrace/triage_report.hpp"
#include "input_file.hpp"

namespace firstrace {
namespace {

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return {};
    const auto e = s.find_last_not_of(" \t\r");
    return s.substr(b, e - b + 1);
}

// Glob match of `pattern` (only `*` is special) against all of `text`.
bool glob_all(const char* p, const char* pe, const char* t, const char* te) {
    const char* star = nullptr;
    const char* resume = nullptr;
    while (t < te) {
        if (p < pe && *p == '*') {
            star = p++;
            resume = t;
        } else if (p < pe && *p == *t) {
            ++p;
            ++t;
        } else if (star) {
            p = star + 1;
            t = ++resume;
        } else {
            return false;
        }
    }
    while (p < pe && *p == '*')
        ++p;
    return p == pe;
}

const char* const kOtherTsanTypes[] = {"thread", "mutex", "signal", "deadlock", "called_from_lib"};

} // namespace

bool suppression_pattern_matches(const std::string& pattern, const std::string& text) {
    std::string p = pattern;
    const bool anchor_start = !p.empty() && p.front() == '^';
    if (anchor_start) p.erase(0, 1);
    const bool anchor_end = !p.empty() && p.back() == '$';
    if (anchor_end) p.pop_back();
    // Unanchored ends match anywhere: as if the pattern were surrounded by '*'.
    if (!anchor_start) p.insert(0, 1, '*');
    if (!anchor_end) p.push_back('*');
    return glob_all(p.data(), p.data() + p.size(), text.data(), text.data() + text.size());
}

Suppressions Suppressions::load(const std::string& path) {
    // Only a regular file (issue 13): a directory read as an empty list, or a FIFO that never
    // ends, would not be noticed. 16 MiB is far more than any list of patterns.
    constexpr std::uint64_t kMaxBytes = 16u << 20;
    std::istringstream in(RegularFile(path, Symlinks::Follow).read_all(kMaxBytes));
    return parse(in, path);
}

Suppressions Suppressions::parse(std::istream& in, const std::string& file) {
    Suppressions s;
    s.file_ = file;
    std::string raw;
    std::uint64_t line = 0;
    while (std::getline(in, raw)) {
        ++line;
        const std::string text = trim(raw);
        if (text.empty() || text.front() == '#') continue;
        const auto colon = text.find(':');
        if (colon == std::string::npos)
            throw InputError(file, line,
                             "expected TYPE:PATTERN (e.g. race:my_function), got '" + text + "'");
        const std::string type = trim(text.substr(0, colon));
        const std::string pattern = trim(text.substr(colon + 1));
        bool known = type == "race" || type == "race_top";
        for (const char* other : kOtherTsanTypes)
            known = known || type == other;
        if (!known)
            throw InputError(file, line,
                             "unknown suppression type '" + type +
                                 "' (race, race_top, or ThreadSanitizer's thread, mutex, signal, "
                                 "deadlock, called_from_lib)");
        if (pattern.empty() || pattern == "^" || pattern == "$" || pattern == "^$")
            throw InputError(file, line, "empty pattern after '" + type + ":'");
        s.rules_.push_back(Rule{type, pattern, line, 0});
    }
    if (in.bad()) throw InputError(file, line, "read error");
    return s;
}

bool Suppressions::suppresses(const ReportRace& race) const {
    auto matches = [](const std::string& pattern, const std::string& function,
                      const std::string& file) {
        return (!function.empty() && suppression_pattern_matches(pattern, function)) ||
               (!file.empty() && suppression_pattern_matches(pattern, file));
    };
    for (const Rule& rule : rules_) {
        if (rule.type != "race" && rule.type != "race_top") continue;
        // As in ThreadSanitizer: `race_top` matches the innermost frame of an access (the
        // access itself), `race` any frame of its stack. Without a stack, the access' headline
        // location is its only frame.
        const bool top_only = rule.type == "race_top";
        for (const auto* sites : {&race.sites_a, &race.sites_b})
            for (const ReportSite& site : *sites) {
                bool hit = false;
                if (site.stack.empty()) hit = matches(rule.pattern, site.function, site.file);
                for (std::size_t k = 0; k < site.stack.size() && !hit; ++k) {
                    hit = matches(rule.pattern, site.stack[k].function, site.stack[k].file);
                    if (top_only) break;
                }
                if (hit) {
                    ++rule.hits;
                    return true;
                }
            }
    }
    return false;
}

} // namespace firstrace
