// Scripted triage on top of ReportModel: race sites (unordered pairs of source locations, the
// unit users fix and CI compares), filters, ThreadSanitizer-style suppressions, and the SARIF,
// Markdown and HTML reports of `firstrace report`.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "firstrace/report_model.hpp"

namespace firstrace {

// One end of a race site: a source location (file, line); column and function are shown but
// take no part in matching.
struct SiteEnd {
    std::string file; // empty when unknown
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    std::string function;
};

// "file.c:12", "file.c" (line unknown) or "<unknown>": what identifies an end.
std::string location_key(const std::string& file, std::uint32_t line);
// The facts of an event and of an ordering as one line of plain text, shared by the text,
// Markdown and HTML reports (report_event_text.cpp; the caller escapes):
// "main ring.c:76" (function and location of a stack's headline, "<unknown>" when unknown);
std::string stack_headline_text(const ReportStack& stack);
// "mutex ring.lock (locked at ring_put ring.c:34), …", "" when the event held no lock;
std::string held_locks_text(const ReportEvent& event);
// "thread 2 created by main at main ring.c:77", "" when the creator is unknown;
std::string creation_text(const ReportEvent& event);
// "race #12 (both its events reach thread 2 #9): thread 1 #5 access at ring_put ring.c:38
// → (synchronization) thread 2 #9 …; thread 2 #4 …", each path at most `max_steps` steps.
std::string ordering_text(const ReportOrderedAfter& after, std::size_t max_steps);

// Order of the two ends of a site: by file, then line.
bool site_end_less(const SiteEnd& x, const SiteEnd& y);
// "<key of the smaller end> <-> <key of the other>": equal for the same (file, line) pair in
// any run, whichever side each end was on (db-schema/SCHEMA.md, site_pairs.site_key).
std::string site_key(const SiteEnd& x, const SiteEnd& y);

struct RaceSite {
    std::string key;
    SiteEnd first, second; // site_end_less(first, second) or equal
    // The two accesses of one instance (the strongest status, then smallest race id): kind,
    // headline and call stack of the side at `first` and of the side at `second`.
    ReportSite access_first, access_second;
    std::string thread_first, thread_second; // the processes that made them
    // The events of that instance (locks held, thread creation) and, in a later partition, the
    // race it is ordered after.
    ReportEvent event_first, event_second;
    std::optional<ReportOrderedAfter> example_ordered_after;
    std::uint32_t example_race = 0;
    RaceStatus example_status = RaceStatus::Unvalidated;
    std::vector<std::uint32_t> races; // race instances, ascending id
    std::set<std::string> threads;
    std::set<std::string> variables;
    std::set<std::uint32_t> runs; // ReportRace::run of the instances (merged models)
    std::uint32_t feasible = 0, feasible_ec = 0, unvalidated = 0, actual = 0;
    bool in_first_partition = false;
    std::uint32_t first_partition = 0; // smallest partition id among the instances
    // feasible > feasible-ec > unvalidated: the strongest status among the instances.
    RaceStatus strongest() const;
};

// The race sites of the races of `model`: a race is an instance of the headline-location pair
// of each of its ReportRace::pairs (conflicting_site_pairs: access sites sharing a byte, one
// writing, not both atomic); a race without pairs counts under the unknown pair. Ordered by
// first partition, then smallest race id. Hashed ends: linear in the number of pairs.
std::vector<RaceSite> group_race_sites(const ReportModel& model);
// The race sites of each first partition (a site is listed under every first partition holding
// one of its instances), in the order of `sites`.
std::map<std::uint32_t, std::vector<const RaceSite*>>
sites_by_first_partition(const ReportModel& model, const std::vector<RaceSite>& sites);
// What the default text report lists: the race sites of the races of first partitions and of
// the validated races (group_race_sites of those), and a count of the others.
struct ListedRaceSites {
    std::vector<RaceSite> sites;
    std::size_t later_unvalidated = 0; // unvalidated races of later partitions, not listed
    std::size_t later_partitions = 0;  // the partitions holding them
    // Race sites grouped but not in `sites` (listed_race_sites with a limit), and how many of
    // them are in first partitions: counted in the report, not shown.
    std::size_t unlisted_sites = 0;
    std::size_t unlisted_in_first = 0;
};
ListedRaceSites listed_race_sites(const ReportModel& model);
// The same, straight from one analysed trace without a ReportModel: equal to
// listed_race_sites(make_report_model(trace, result)) except that RaceSite::races holds only
// the smallest race of each site (the status counts give their number): time linear in the
// race site instances with integer keys (dense traces have hundreds of instances per race),
// memory linear in the race sites. With a limit, only the first `limit` sites in the text
// report's order (first partitions first) are built in full, the others counted (unlisted_*):
// a trace with 10^5 race sites need not name, explain and order all of them for 20 lines.
ListedRaceSites listed_race_sites(const Trace& trace, const AnalysisResult& result,
                                  std::size_t limit = std::numeric_limits<std::size_t>::max());
// The text report of `model`'s header (counts, ordering, trace, runs) with race sites already
// grouped (write_text_report in report_model.hpp groups the model's own races).
void write_text_report(std::ostream& out, const ReportModel& model, ListedRaceSites listed,
                       const TextReportOptions& options = {});
// The site keys of one race.
std::vector<std::string> race_site_keys(const ReportRace& race);

// A race as ThreadSanitizer's suppressions look at it (tsan_suppressions.cpp IsSuppressed,
// tsan_rtl_report.cpp OutputReport): the call stack of each access site of either side,
// innermost frame (the access) first, each frame's function, file and module (any may be
// empty), and the race sites -- pairs of a site of each side, as ReportSitePair -- with the
// global variables each shares.
struct SuppressionFrame {
    std::string function, file, module;
};
struct SuppressionCandidate {
    std::vector<std::vector<SuppressionFrame>> stacks_a, stacks_b;
    struct Pair {
        std::uint32_t a = 0, b = 0;       // index stacks_a, stacks_b
        std::vector<std::string> globals; // data symbols of the shared bytes
    };
    std::vector<Pair> pairs;
};

// ThreadSanitizer-style suppressions: one `type:pattern` a line, `#` comments, blank lines.
// TSan reports one pair of accesses at a time and drops the report when a `race:` pattern
// matches the function, file or module of any frame of either access' stack or the name of the
// global variable, or a `race_top:` pattern the innermost frame of either stack;
// `called_from_lib:` names modules whose calls into the runtime TSan ignores (libignore), here:
// an access whose innermost frame is in such a module. A recorded race holds every pair of its
// two events' conflicting access sites (its race sites): it is suppressed when each of them
// is (a race without pairs: when a site of either side is). Patterns are substring matches with
// `*` wildcards, `^` / `$` anchoring them at the start / end. The other ThreadSanitizer types
// (thread, mutex, signal, deadlock) are accepted and name reports firstrace does not make.
class Suppressions {
  public:
    struct Rule {
        std::string type;
        std::string pattern;
        std::uint64_t line = 0;
        mutable std::uint64_t hits = 0; // races suppressed by this rule
    };
    // Throws InputError(file, line, ...) for a malformed line, InputError(file, 0, ...) when the
    // file cannot be read.
    static Suppressions load(const std::string& path);
    static Suppressions parse(std::istream& in, const std::string& file);

    // The rule that suppresses `race` (the one of its first race site; its hit counted), or
    // null when the race stays.
    const Rule* suppressing_rule(const SuppressionCandidate& race) const;
    // The same for a race of a report (sites and pairs as make_report_model gives them; a
    // pair's variable names a global when it is not a heap block or an address).
    bool suppresses(const ReportRace& race) const;
    const std::vector<Rule>& rules() const { return rules_; }
    const std::string& file() const { return file_; }

  private:
    const Rule* rule_for_stack(const std::vector<SuppressionFrame>& stack) const;
    const Rule* rule_for_globals(const std::vector<std::string>& globals) const;
    std::string file_;
    std::vector<Rule> rules_;
};

// ThreadSanitizer's template match: substring, `*` any run of characters, `^` / `$` anchors.
bool suppression_pattern_matches(const std::string& pattern, const std::string& text);

struct RaceFilter {
    bool first_only = false;          // races of first partitions only
    std::vector<RaceStatus> statuses; // empty: every status
    std::vector<std::string>
        file_patterns; // glob on a site's file (or its trailing path); empty: all
    const Suppressions* suppressions = nullptr;
    // Race-site keys known before: a race is kept when one of its sites is not among them.
    const std::set<std::string>* baseline = nullptr;
};

struct FilterStats {
    std::size_t kept = 0;
    std::size_t suppressed = 0; // by suppressions
    std::size_t baselined = 0;  // every site in the baseline
    std::size_t filtered = 0;   // by --first-only / --status / --file
};

// `model` with only the races that pass `filter`: races[] holds the kept races (ids unchanged),
// partitions keep only kept races and partitions left empty are dropped. Counts stay the run's.
ReportModel filter_report(const ReportModel& model, const RaceFilter& filter,
                          FilterStats* stats = nullptr);
// True when `filter` keeps every race (a filtered model then equals the original).
bool filter_is_empty(const RaceFilter& filter);

// Exit-code policy of `report --fail-on`.
enum class FailOn { None, Any, Feasible, First };
// Whether the races of `model` (already filtered) trip `policy`: any race; a feasible or
// feasible-ec race; a race of a first partition.
bool fails(const ReportModel& model, FailOn policy);

// One run as the triage writers see it.
struct TriageRun {
    std::int64_t id = 0; // database run id (0 when not from a database)
    std::string title;   // program or trace
    std::string analyzed_at;
    ReportModel model;
    // Stored text of a source file named by the locations (empty optional: not available).
    std::function<std::optional<std::string>(const std::string& file)> source;
};

struct SarifOptions {
    // Paths under this directory are written relative to it with uriBaseId %SRCROOT%, as code
    // scanning services expect; other absolute paths become file:// URIs.
    std::string source_root;
    std::string tool_version = FIRSTRACE_VERSION;
};

// SARIF 2.1.0: one result per race site, both locations (locations + relatedLocations), rule
// ids per status, partialFingerprints carrying the site key. Sites with no known location at
// all are counted in the run's properties (raceSitesWithoutLocation) instead.
void write_sarif_report(std::ostream& out, const std::vector<TriageRun>& runs,
                        const SarifOptions& options = {});
void write_markdown_report(std::ostream& out, const std::vector<TriageRun>& runs);
// One self-contained HTML file (inline CSS, no scripts): first partitions, race sites with
// source excerpts from the stored source text.
void write_html_report(std::ostream& out, const std::vector<TriageRun>& runs);

} // namespace firstrace
