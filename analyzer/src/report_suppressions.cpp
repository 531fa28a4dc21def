// ThreadSanitizer-style suppressions: `firstrace report --suppressions` files and the program's
// own (tsan_configuration.hpp, applied by `analyze`).
#include <cctype>
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

const Suppressions::Rule*
Suppressions::rule_for_stack(const std::vector<SuppressionFrame>& stack) const {
    auto matches = [](const std::string& pattern, const SuppressionFrame& f) {
        for (const std::string* text : {&f.function, &f.file, &f.module})
            if (!text->empty() && suppression_pattern_matches(pattern, *text)) return true;
        return false;
    };
    // As TSan: each frame from the innermost, against every `race:` rule; then `race_top:`
    // against the innermost frame alone.
    for (const SuppressionFrame& frame : stack)
        for (const Rule& rule : rules_)
            if (rule.type == "race" && matches(rule.pattern, frame)) return &rule;
    if (stack.empty()) return nullptr;
    for (const Rule& rule : rules_)
        if (rule.type == "race_top" && matches(rule.pattern, stack.front())) return &rule;
    // libignore: the runtime ignores what a call from a matching module does.
    for (const Rule& rule : rules_)
        if (rule.type == "called_from_lib" && !stack.front().module.empty() &&
            suppression_pattern_matches(rule.pattern, stack.front().module))
            return &rule;
    return nullptr;
}

const Suppressions::Rule*
Suppressions::rule_for_globals(const std::vector<std::string>& globals) const {
    for (const std::string& name : globals)
        for (const Rule& rule : rules_)
            if (rule.type == "race" && !name.empty() &&
                suppression_pattern_matches(rule.pattern, name))
                return &rule;
    return nullptr;
}

const Suppressions::Rule* Suppressions::suppressing_rule(const SuppressionCandidate& race) const {
    if (rules_.empty()) return nullptr;
    const Rule* first = nullptr;
    if (race.pairs.empty()) {
        for (const auto* stacks : {&race.stacks_a, &race.stacks_b})
            for (const auto& stack : *stacks)
                if (const Rule* r = rule_for_stack(stack)) {
                    ++r->hits;
                    return r;
                }
        return nullptr;
    }
    for (const SuppressionCandidate::Pair& p : race.pairs) {
        const Rule* r = nullptr;
        if (p.a < race.stacks_a.size()) r = rule_for_stack(race.stacks_a[p.a]);
        if (r == nullptr && p.b < race.stacks_b.size()) r = rule_for_stack(race.stacks_b[p.b]);
        if (r == nullptr) r = rule_for_globals(p.globals);
        if (r == nullptr) return nullptr; // this race site is reported
        if (first == nullptr) first = r;
    }
    ++first->hits;
    return first;
}

namespace {

std::vector<SuppressionFrame> suppression_frames(const ReportSite& site) {
    std::vector<SuppressionFrame> frames;
    if (site.stack.empty()) frames.push_back({site.function, site.file, ""});
    for (const ReportFrame& f : site.stack)
        frames.push_back({f.function, f.file, ""});
    return frames;
}

// The global variables a report names ("X", "ring.tail", "a, b, … (5 in all)"): not heap
// blocks ("heap block of ...") or addresses ("0x...").
std::vector<std::string> named_globals(const std::string& variables) {
    std::vector<std::string> out;
    std::size_t at = 0;
    while (at < variables.size()) {
        std::size_t end = variables.find(", ", at);
        if (end == std::string::npos) end = variables.size();
        const std::string item = variables.substr(at, end - at);
        if (item.rfind("heap block", 0) != 0 && item.rfind("0x", 0) != 0) {
            std::size_t n = 0;
            while (n < item.size() && (std::isalnum(static_cast<unsigned char>(item[n])) ||
                                       item[n] == '_' || item[n] == ':'))
                ++n;
            if (n > 0) out.push_back(item.substr(0, n));
        }
        at = end + 2;
    }
    return out;
}

} // namespace

bool Suppressions::suppresses(const ReportRace& race) const {
    SuppressionCandidate c;
    for (const ReportSite& site : race.sites_a)
        c.stacks_a.push_back(suppression_frames(site));
    for (const ReportSite& site : race.sites_b)
        c.stacks_b.push_back(suppression_frames(site));
    for (const ReportSitePair& p : race.pairs)
        c.pairs.push_back({p.a, p.b, named_globals(p.variable)});
    return suppressing_rule(c) != nullptr;
}

} // namespace firstrace
