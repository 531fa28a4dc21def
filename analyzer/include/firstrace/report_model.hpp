// A presentation-neutral view of one analysed run: what `analyze --format` prints and what
// `report` prints after reading a database. Built either from a Trace + AnalysisResult or from
// the database, so both paths print the same facts through the same writers.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "firstrace/analysis_result.hpp"
#include "firstrace/model.hpp"

namespace firstrace {

// One frame of a call stack: a source location and the function executing there.
struct ReportFrame {
    std::string file; // empty when unknown
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    std::string function;
    friend bool operator==(const ReportFrame&, const ReportFrame&) = default;
};

// An access site as reports show it. file/line/column/function are its headline location: the
// innermost frame of its call stack in the user's code (report_frames.cpp, headline_frame), or
// the access itself when no frame is. `stack` is the full call stack, innermost frame (the
// access) first; empty when the trace recorded none.
struct ReportSite {
    std::string file; // empty when unknown
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    std::string function;
    std::string kind; // "read", "write", "read-write"
    std::vector<ReportFrame> stack;
    friend bool operator==(const ReportSite&, const ReportSite&) = default;
};

// One race site instance of a race (DESIGN "Outputs"): an access site of event a and one of
// event b whose byte ranges intersect, at least one writing and not both atomic. `a` and `b`
// index ReportRace::sites_a / sites_b; `variable` names the bytes they share.
struct ReportSitePair {
    std::uint32_t a = 0;
    std::uint32_t b = 0;
    std::string variable;
    friend bool operator==(const ReportSitePair&, const ReportSitePair&) = default;
};

// A call stack as reports show it: its headline (the innermost frame in the user's code, else
// the innermost frame) and every frame, innermost first (empty when only one frame is known).
// An unknown stack has an empty headline file and function.
struct ReportStack {
    ReportFrame headline;
    std::vector<ReportFrame> frames;
    bool known() const { return !headline.file.empty() || !headline.function.empty(); }
    friend bool operator==(const ReportStack&, const ReportStack&) = default;
};

// A lock held during an event: its name and where the process acquired it.
struct ReportHeldLock {
    std::string name; // "mutex pool_lock", "mutex@0x7f..", STD "L1"
    ReportStack acquired;
    friend bool operator==(const ReportHeldLock&, const ReportHeldLock&) = default;
};

struct ReportEvent {
    std::string thread; // process name
    std::uint32_t index = 0;
    std::vector<ReportHeldLock> locks; // locks the thread held during the event
    std::string parent;                // the thread that created this one ("" unknown)
    ReportStack created;               // where that thread created it
    friend bool operator==(const ReportEvent&, const ReportEvent&) = default;
};

// One step of the chain of events that orders a race after another (report_ordering_chains.hpp).
struct ReportOrderingStep {
    std::string thread;
    std::uint32_t index = 0;
    std::string via;    // "start", "program-order", "synchronization", "event-control"
    std::string kind;   // the event's kind: "computation", "release", "fork", ...
    std::string object; // what it synchronizes on ("mutex pool_lock", a thread), "" if nothing
    ReportStack at;     // where it happened (a computation event: its first access)
    friend bool operator==(const ReportOrderingStep&, const ReportOrderingStep&) = default;
};

// Races of later partitions: one race of an earlier partition this one is ordered after and the
// chain of events (why it may be an artifact): a path from each event of that race to one event
// of this race (Def 8.1), each path beginning with a "start" step.
struct ReportOrderedAfter {
    std::uint32_t race = 0;
    std::vector<ReportOrderingStep> chain;
    friend bool operator==(const ReportOrderedAfter&, const ReportOrderedAfter&) = default;
};

struct ReportRace {
    std::uint32_t id = 0;
    ReportEvent a;
    ReportEvent b;
    RaceStatus status = RaceStatus::Feasible;
    std::optional<std::uint32_t> tangle;
    std::optional<bool> actual;
    std::uint32_t partition = 0;
    std::vector<std::string> variables; // conflicting variables or address ranges
    std::vector<ReportSite> sites_a;
    std::vector<ReportSite> sites_b;
    std::vector<ReportSitePair> pairs;               // the race sites this race is an instance of
    std::optional<ReportOrderedAfter> ordered_after; // later partitions, when found
    std::uint32_t run = 0; // merged models (merge_report_models): index of the race's run
};

// A misuse of a synchronization object (Trace::misuses): shown apart from the races.
struct ReportMisuse {
    std::string kind;      // "init-with-waiters", "destroy-with-waiters", "free-with-waiters"
    std::string object;    // "barrier@0x..."
    std::string thread;    // process name
    ReportStack at;        // where the program made the call
    std::uint32_t run = 0; // merged models: index of the run
    friend bool operator==(const ReportMisuse&, const ReportMisuse&) = default;
};
// "pthread_barrier_init while threads are blocked on it" and the like, for text-like formats.
std::string misuse_text(const ReportMisuse& misuse);

struct ReportPartition {
    std::uint32_t id = 0;
    bool first = false;
    std::vector<std::uint32_t> races;
    std::vector<std::uint32_t> after;
};

struct ReportModel {
    std::string trace_path;
    Ordering ordering = Ordering::Approximate;
    bool truncated = false;
    AnalysisCounts counts;
    std::vector<ReportRace> races;
    std::vector<ReportPartition> partitions;
    std::vector<ReportMisuse> misuses; // misuses of synchronization objects (never races)
    std::uint32_t runs = 1;            // runs merged into this model
    // Merged models: one line per run, "run 2: app.trace-2 (complete ordering)".
    std::vector<std::string> merged_runs;
};

// The run's header alone (trace, ordering, counts; no races or partitions): what the text
// report needs besides race sites grouped straight from the analysis (listed_race_sites).
ReportModel make_report_header(const Trace& trace, const AnalysisResult& result);

// With `listed_only`, only the races the default report lists get variables, sites and pairs:
// those of first partitions and the validated (feasible / feasible-ec) ones. Enough for the
// text report, and much cheaper on traces with millions of races.
ReportModel make_report_model(const Trace& trace, const AnalysisResult& result,
                              bool listed_only = false);

// Several runs as one model (`analyze T1 T2 …`, `report --all-runs`): the races and partitions
// of each run after those of the previous ones (ids renumbered, ReportRace::run says which run),
// counts added; a race site found in any run is a site of the merged model.
// `titles` name the runs ("run 2", default "run K" counting from 1).
ReportModel merge_report_models(const std::vector<ReportModel>& runs,
                                const std::vector<std::string>& titles = {});

// "a, b, c, … (12 in all)": at most `limit` items, for every text-like format.
std::string join_limited(const std::set<std::string>& items, std::size_t limit,
                         const char* ellipsis = "…");

// "file.c:12" (or "<unknown>"), used by every text-like format.
std::string format_location(const ReportSite& site);

// The JSON object of DESIGN "Outputs".
void write_json_report(std::ostream& out, const ReportModel& model);
struct TextReportOptions {
    std::size_t max_sites = 20; // race sites shown in full
    std::size_t max_frames = 3; // lines of each call stack
    bool colour = false;        // ANSI colours (on a terminal)
};
// What a person reads: counts, then the race sites of first partitions, the other sites with
// validated races, and a count of the unvalidated races of later partitions.
void write_text_report(std::ostream& out, const ReportModel& model,
                       const TextReportOptions& options = {});

} // namespace firstrace
