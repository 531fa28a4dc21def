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

struct ReportSite {
    std::string file; // empty when unknown
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    std::string function;
    std::string kind; // "read", "write", "read-write"
    friend bool operator==(const ReportSite&, const ReportSite&) = default;
};

struct ReportEvent {
    std::string thread; // process name
    std::uint32_t index = 0;
    friend bool operator==(const ReportEvent&, const ReportEvent&) = default;
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
};

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
};

// With `first_partitions_only`, races outside first partitions get no variables and no sites:
// enough for the text report, and much cheaper on traces with millions of races.
ReportModel make_report_model(const Trace& trace, const AnalysisResult& result,
                              bool first_partitions_only = false);

// "a, b, c, … (12 in all)": at most `limit` items, for every text-like format.
std::string join_limited(const std::set<std::string>& items, std::size_t limit,
                         const char* ellipsis = "…");

// "file.c:12" (or "<unknown>"), used by every text-like format.
std::string format_location(const ReportSite& site);

// The JSON object of DESIGN "Outputs".
void write_json_report(std::ostream& out, const ReportModel& model);
// What a person reads: counts, then each first partition with its races grouped by site pair.
void write_text_report(std::ostream& out, const ReportModel& model);

} // namespace firstrace
