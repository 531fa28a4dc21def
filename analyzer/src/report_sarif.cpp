// SARIF 2.1.0 (OASIS) output of `firstrace report --format sarif`: one result per race site,
// both source locations, for code-scanning services.
#include <cctype>
#include <iterator>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "firstrace/triage_report.hpp"
#include "json_writer.hpp"

namespace firstrace {
namespace {

struct Rule {
    RaceStatus status;
    const char* id;
    const char* name;
    const char* short_text;
    const char* full_text;
    const char* level;
};

const Rule kRules[] = {
    {RaceStatus::Feasible, "race/feasible", "FeasibleDataRace", "Feasible data race",
     "Two unsynchronized accesses to the same memory, at least one a write, whose events are "
     "unordered "
     "even when the shared-data dependences of the execution are respected: the race can occur in "
     "an "
     "execution that performs the same events (Netzer, Theorem 7.1).",
     "error"},
    {RaceStatus::FeasibleEc, "race/feasible-ec", "FeasibleDataRaceEventControl",
     "Feasible data race (event control)",
     "A data race ordered by shared-data dependences, but no event-control dependence orders its "
     "events: "
     "it is feasible (Netzer, Theorem 7.3).",
     "error"},
    {RaceStatus::Unvalidated, "race/unvalidated", "UnvalidatedDataRace", "Unvalidated data race",
     "An apparent data race that could not be proven feasible: it may be an artifact of another "
     "race "
     "(its tangle holds at least one feasible race).",
     "warning"},
};

std::size_t rule_index(RaceStatus s) {
    for (std::size_t i = 0; i < std::size(kRules); ++i)
        if (kRules[i].status == s) return i;
    return 0;
}

bool is_absolute(const std::string& path) {
    return !path.empty() && path.front() == '/';
}

// Percent-encodes what may not appear in a URI path (also `:`, which would make the first
// segment of a relative path a scheme, RFC 3986 section 4.2).
std::string uri_path(const std::string& path) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : path) {
        if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~' ||
            c == '+' || c == ',' || c == '=' || c == '@') {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

std::string with_trailing_slash(std::string s) {
    if (!s.empty() && s.back() != '/') s += '/';
    return s;
}

void write_artifact(JsonWriter& w, const std::string& file, const SarifOptions& options) {
    w.key("artifactLocation").begin_object();
    const std::string root = with_trailing_slash(options.source_root);
    if (is_absolute(file) && !root.empty() && file.compare(0, root.size(), root) == 0) {
        w.key("uri").value(uri_path(file.substr(root.size())));
        w.key("uriBaseId").value("%SRCROOT%");
    } else if (is_absolute(file)) {
        w.key("uri").value("file://" + uri_path(file));
    } else {
        std::string rel = file;
        while (rel.rfind("./", 0) == 0)
            rel.erase(0, 2);
        w.key("uri").value(uri_path(rel));
        w.key("uriBaseId").value("%SRCROOT%");
    }
    w.end_object();
}

void write_location(JsonWriter& w, const SiteEnd& end, const SarifOptions& options, int id,
                    const std::string& message) {
    w.begin_object();
    if (id >= 0) w.key("id").value(static_cast<std::int64_t>(id));
    if (!end.file.empty()) {
        w.key("physicalLocation").begin_object();
        write_artifact(w, end.file, options);
        if (end.line > 0) {
            w.key("region").begin_object();
            w.key("startLine").value(end.line);
            if (end.column > 0) w.key("startColumn").value(end.column);
            w.end_object();
        }
        w.end_object();
    }
    if (!end.function.empty()) {
        w.key("logicalLocations").begin_array().begin_object();
        w.key("name").value(end.function);
        w.key("kind").value("function");
        w.end_object().end_array();
    }
    if (!message.empty()) {
        w.key("message").begin_object();
        w.key("text").value(message);
        w.end_object();
    }
    w.end_object();
}

// One thread flow per access of the site's example race: its call stack from the outermost
// frame to the access (SARIF 3.36-3.38: the order a reader follows the calls).
void write_code_flow(JsonWriter& w, const RaceSite& s, const SarifOptions& options) {
    w.key("codeFlows").begin_array().begin_object();
    w.key("message")
        .begin_object()
        .key("text")
        .value("the two accesses of race #" + std::to_string(s.example_race))
        .end_object();
    w.key("threadFlows").begin_array();
    for (const auto& [access, event] :
         {std::pair{&s.access_first, &s.event_first}, {&s.access_second, &s.event_second}}) {
        const std::string* thread = &event->thread;
        // The locks the thread held and where it was created (ThreadSanitizer's report facts).
        std::string text = access->kind + " by " + *thread;
        if (const std::string locks = held_locks_text(*event); !locks.empty())
            text += " holding " + locks;
        if (const std::string created = creation_text(*event); !created.empty())
            text += "; " + created;
        w.begin_object();
        w.key("message").begin_object().key("text").value(text).end_object();
        w.key("locations").begin_array();
        std::vector<ReportFrame> frames = access->stack;
        if (frames.empty())
            frames.push_back({access->file, access->line, access->column, access->function});
        for (std::size_t k = frames.size(); k-- > 0;) {
            const ReportFrame& f = frames[k];
            w.begin_object();
            w.key("nestingLevel").value(static_cast<std::uint64_t>(frames.size() - 1 - k));
            w.key("location");
            write_location(w, SiteEnd{f.file, f.line, f.column, f.function}, options, -1,
                           k == 0 ? access->kind + " by " + *thread : "");
            w.end_object();
        }
        w.end_array();
        w.end_object();
    }
    w.end_array();
    w.end_object();
    if (s.example_ordered_after && !s.in_first_partition) {
        // Why the race may be an artifact (thesis ch. 8): a path from each event of an earlier
        // race to one event of this race, one thread flow each.
        const ReportOrderedAfter& o = *s.example_ordered_after;
        w.begin_object();
        w.key("message")
            .begin_object()
            .key("text")
            .value("race #" + std::to_string(s.example_race) + " is ordered after race #" +
                   std::to_string(o.race) + ": both its events reach an event of this race")
            .end_object();
        w.key("threadFlows").begin_array();
        bool open = false;
        for (const ReportOrderingStep& step : o.chain) {
            if (step.via == "start") {
                if (open) w.end_array().end_object();
                w.begin_object().key("locations").begin_array();
                open = true;
            }
            if (!open) continue;
            std::string text = (step.via == "start" ? std::string() : "(" + step.via + ") ") +
                               step.thread + " #" + std::to_string(step.index) + " " +
                               (step.kind == "computation" ? std::string("access") : step.kind);
            if (!step.object.empty()) text += " " + step.object;
            w.begin_object();
            w.key("location");
            write_location(w,
                           SiteEnd{step.at.headline.file, step.at.headline.line,
                                   step.at.headline.column, step.at.headline.function},
                           options, -1, text);
            w.end_object();
        }
        if (open) w.end_array().end_object();
        w.end_array();
        w.end_object();
    }
    w.end_array();
}

std::string describe_end(const SiteEnd& e) {
    std::string s = location_key(e.file, e.line);
    if (!e.function.empty()) s += " (" + e.function + ")";
    return s;
}

std::string result_message(const RaceSite& s) {
    std::string text = "Data race between " + describe_end(s.first) + " and " +
                       describe_end(s.second) + ": " + std::to_string(s.races.size()) +
                       (s.races.size() == 1 ? " instance" : " instances") + " (";
    bool first = true;
    auto part = [&](std::uint32_t n, const char* what) {
        if (n == 0) return;
        text += (first ? "" : ", ") + std::to_string(n) + " " + what;
        first = false;
    };
    part(s.feasible, "feasible");
    part(s.feasible_ec, "feasible-ec");
    part(s.unvalidated, "unvalidated");
    text += ")";
    text += s.in_first_partition
                ? ", in a first partition"
                : ", only in later partitions (may be an artifact of an earlier race)";
    if (s.actual > 0) text += ", observed overlapping";
    if (!s.variables.empty()) text += "; on " + join_limited(s.variables, 6, "...");
    if (!s.threads.empty()) text += "; threads " + join_limited(s.threads, 6, "...");
    return text + ".";
}

} // namespace

void write_sarif_report(std::ostream& out, const std::vector<TriageRun>& runs,
                        const SarifOptions& options) {
    JsonWriter w(out);
    w.begin_object();
    w.key("$schema").value("https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
                           "sarif-schema-2.1.0.json");
    w.key("version").value("2.1.0");
    w.key("runs").begin_array();
    for (const TriageRun& run : runs) {
        w.newline();
        w.begin_object();
        w.key("tool").begin_object();
        w.key("driver").begin_object();
        w.key("name").value("firstrace");
        w.key("version").value(options.tool_version);
        w.key("semanticVersion").value(options.tool_version);
        w.key("rules").begin_array();
        for (const Rule& r : kRules) {
            w.begin_object();
            w.key("id").value(r.id);
            w.key("name").value(r.name);
            w.key("shortDescription").begin_object().key("text").value(r.short_text).end_object();
            w.key("fullDescription").begin_object().key("text").value(r.full_text).end_object();
            w.key("defaultConfiguration").begin_object().key("level").value(r.level).end_object();
            w.key("properties").begin_object();
            w.key("tags").begin_array().value("concurrency").value("data-race").end_array();
            w.end_object();
            w.end_object();
        }
        w.end_array();
        w.end_object();
        w.end_object();
        if (!options.source_root.empty()) {
            w.key("originalUriBaseIds").begin_object();
            w.key("%SRCROOT%")
                .begin_object()
                .key("uri")
                .value("file://" + uri_path(with_trailing_slash(options.source_root)));
            w.end_object();
            w.end_object();
        }
        const std::vector<RaceSite> sites = group_race_sites(run.model);
        std::uint64_t unlocated = 0;
        for (const RaceSite& s : sites)
            unlocated += s.first.file.empty() && s.second.file.empty();
        w.key("properties").begin_object();
        w.key("runId").value(run.id);
        // Race sites whose two locations are unknown: code scanning needs a location to show a
        // result, so they are only counted here (`--format json` lists them).
        w.key("raceSitesWithoutLocation").value(unlocated);
        w.key("trace").value(run.model.trace_path);
        w.key("ordering").value(to_string(run.model.ordering));
        w.key("truncated").value(run.model.truncated);
        w.end_object();
        w.key("results").begin_array();
        for (const RaceSite& s : sites) {
            if (s.first.file.empty() && s.second.file.empty()) continue;
            const RaceStatus status = s.strongest();
            const std::size_t rule = rule_index(status);
            // Later partitions may be artifacts of earlier races: one level lower.
            const char* level = kRules[rule].level;
            if (!s.in_first_partition)
                level = status == RaceStatus::Unvalidated ? "note" : "warning";
            // The primary location is a known one, if any.
            const bool swap = s.first.file.empty() && !s.second.file.empty();
            const SiteEnd& primary = swap ? s.second : s.first;
            const SiteEnd& other = swap ? s.first : s.second;
            w.newline();
            w.begin_object();
            w.key("ruleId").value(kRules[rule].id);
            w.key("ruleIndex").value(static_cast<std::uint64_t>(rule));
            w.key("level").value(level);
            w.key("message").begin_object().key("text").value(result_message(s)).end_object();
            w.key("locations").begin_array();
            write_location(w, primary, options, -1, "");
            w.end_array();
            w.key("relatedLocations").begin_array();
            write_location(w, other, options, 1,
                           "the other access of the race: " + describe_end(other));
            w.end_array();
            write_code_flow(w, s, options);
            w.key("partialFingerprints")
                .begin_object()
                .key("firstraceSiteKey/v1")
                .value(s.key)
                .end_object();
            w.key("properties").begin_object();
            w.key("siteKey").value(s.key);
            w.key("instances").value(static_cast<std::uint64_t>(s.races.size()));
            w.key("feasible").value(s.feasible);
            w.key("feasibleEc").value(s.feasible_ec);
            w.key("unvalidated").value(s.unvalidated);
            w.key("firstPartition").value(s.in_first_partition);
            if (s.example_ordered_after && !s.in_first_partition)
                w.key("orderedAfterRace").value(s.example_ordered_after->race);
            w.key("raceIds").begin_array();
            for (std::size_t i = 0; i < s.races.size() && i < 20; ++i)
                w.value(s.races[i]);
            w.end_array();
            w.end_object();
            w.end_object();
        }
        w.end_array();
        w.end_object();
    }
    w.end_array();
    w.end_object();
    w.flush();
    out << "\n";
}

} // namespace firstrace
