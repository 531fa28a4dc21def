// The results database (db-schema/schema.sql, documented in db-schema/SCHEMA.md): one SQLite
// file holding many analysed runs, written by `firstrace analyze -o DB`, read by
// `firstrace report`, the GUI and scripts.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "firstrace/analysis.hpp"
#include "firstrace/analysis_result.hpp"
#include "firstrace/model.hpp"
#include "firstrace/report_model.hpp"

namespace firstrace {

namespace db {
class Connection;
}

// What is known about the analysed execution besides the trace itself.
struct RunInfo {
    std::optional<std::string> program; // traced executable
    std::vector<std::string>
        arguments; // its command line (stored as a JSON array; empty = unknown)
    std::optional<std::string> host;
    std::optional<std::string> started_at; // ISO 8601 UTC
    std::string analyzed_at;               // ISO 8601 UTC; empty: now
    std::string tool_version = FIRSTRACE_VERSION;
};

// The run information a trace carries: for a trace directory of `firstrace record`, the
// program, its arguments, start time and host from its metadata file; empty for STD traces.
RunInfo run_info_for(const Trace& trace);

// How an existing database is checked before a run is appended to it: Auto is the full
// `PRAGMA integrity_check` up to 256 MiB and `quick_check` (no index order) above; Full and
// Quick force one of them whatever the size (`analyze --integrity-check`).
enum class IntegrityCheck { Auto, Full, Quick };

struct DatabaseWriteOptions {
    // Read the source files the locations name and store their text.
    bool store_sources = true;
    // Largest source file stored; larger ones are recorded without text.
    std::uint64_t max_source_bytes = 8u << 20;
    // The source roots (`analyze --source-root`): when given, only files whose real path lies
    // under one of them are stored, and relative names are looked up there. When empty, a
    // recorded trace stores the files its debug information names, a text trace none
    // (README "Security and robustness").
    std::vector<std::string> source_directories;
    IntegrityCheck integrity_check = IntegrityCheck::Auto;
    // Called with ("writing database", fraction done).
    ProgressCallback progress;
};

// Appends one run of `trace` and `result` to `database` (created when missing) in a single
// transaction and returns the run id. Throws InputError naming the file when it is not a
// firstrace database, has a newer schema, or is unreadable; such a file is left unchanged.
std::int64_t write_run(const std::string& database, const Trace& trace,
                       const AnalysisResult& result, const RunInfo& info = {},
                       const DatabaseWriteOptions& options = {});

struct RunSummary {
    std::int64_t id = 0;
    std::optional<std::string> program;
    std::optional<std::string> host;
    std::optional<std::string> started_at;
    std::string analyzed_at;
    std::string trace_path;
    std::string tool_version;
    Ordering ordering = Ordering::Approximate;
    bool truncated = false;
    AnalysisCounts counts;
};

// A read-only view of a results database. Opening checks application_id and user_version and
// throws InputError naming the file for a foreign, newer, older (not yet migrated) or corrupt
// database; the file is never written.
class ResultsDatabase {
  public:
    explicit ResultsDatabase(const std::string& path);
    ~ResultsDatabase();
    ResultsDatabase(ResultsDatabase&&) noexcept;
    ResultsDatabase& operator=(ResultsDatabase&&) noexcept;

    const std::string& path() const;
    std::vector<RunSummary> runs() const; // ascending id
    // The run with the largest id; throws InputError when the database holds no run.
    std::int64_t latest_run() const;
    // Throws InputError when there is no such run.
    RunSummary run(std::int64_t id) const;
    // The run as `analyze` saw it: equal to make_report_model(trace, result) of what was written.
    ReportModel read_report(std::int64_t run) const;
    // Race-site keys (see db-schema/SCHEMA.md, site_pairs.site_key) of one run, or of every run.
    std::vector<std::string> site_keys(std::optional<std::int64_t> run = std::nullopt) const;
    // The stored text of a source file named by the run's locations, if it was readable.
    std::optional<std::string> source_text(std::int64_t run, const std::string& file) const;
    // The connection, for the other readers of the store (results_browser.hpp).
    db::Connection& connection() const { return *connection_; }

    // For the GUI, without SQL of its own (each call reads the run's locations and contexts):
    // the facts reports show about event `event` of process `process` (the locks held, the
    // thread's creator and creation stack), and the race a race of a later partition is ordered
    // after with its chain of events (nullopt: a first partition's race or none stored).
    // Throw InputError for an unknown run or process.
    ReportEvent event_facts(std::int64_t run, std::uint32_t process, std::uint32_t event) const;
    std::optional<ReportOrderedAfter> ordered_after(std::int64_t run, std::uint32_t race) const;

  private:
    Trace read_stacks(std::int64_t run) const;
    std::vector<std::string> process_names(std::int64_t run) const;
    void read_event_facts(std::int64_t run, const Trace& stacks,
                          const std::vector<std::string>& process_names,
                          const std::vector<std::uint32_t>& process_parents,
                          const std::vector<std::pair<EventRef, EventRef>>& race_events,
                          ReportModel& model) const;
    void read_orderings(std::int64_t run, const Trace& stacks,
                        const std::vector<std::string>& process_names, ReportModel& model,
                        std::optional<std::uint32_t> only = std::nullopt) const;
    std::string db_path_;
    std::unique_ptr<db::Connection> connection_;
};

// Schema version this build reads and writes (PRAGMA user_version).
int results_database_schema_version();

} // namespace firstrace
