// Merging the runs of one program (DESIGN "Outputs"; issue 12 "Schedule"): races are found
// only in the executions recorded, so `firstrace record --runs N` records several and the
// report merges their race sites: a site found in any run is listed once, with the runs that
// found it. Each run keeps its own partitions (R̂ orders races of one execution only).
#include <algorithm>
#include <string>

#include "firstrace/report_model.hpp"

namespace firstrace {

ReportModel merge_report_models(const std::vector<ReportModel>& runs,
                                const std::vector<std::string>& titles) {
    ReportModel out;
    out.runs = 0;
    std::uint32_t race_base = 0, partition_base = 0;
    for (std::uint32_t k = 0; k < runs.size(); ++k) {
        const ReportModel& m = runs[k];
        out.ordering = m.ordering;
        out.truncated = out.truncated || m.truncated;
        out.trace_path += (out.trace_path.empty() ? "" : ", ") + m.trace_path;
        out.runs += m.runs;
        out.merged_runs.push_back((k < titles.size() ? titles[k] : "run " + std::to_string(k + 1)) +
                                  ": " + m.trace_path + " (" + to_string(m.ordering) + " ordering" +
                                  (m.truncated ? ", TRUNCATED trace" : "") + ")");
        AnalysisCounts& c = out.counts;
        const AnalysisCounts& d = m.counts;
        c.events += d.events;
        c.computation_events += d.computation_events;
        c.accesses += d.accesses;
        c.processes += d.processes;
        c.apparent += d.apparent;
        c.actual += d.actual;
        c.feasible += d.feasible;
        c.feasible_ec += d.feasible_ec;
        c.unvalidated += d.unvalidated;
        c.tangles += d.tangles;
        c.partitions += d.partitions;
        c.first_partitions += d.first_partitions;
        std::uint32_t races = 0, partitions = 0;
        for (const ReportRace& r : m.races) {
            ReportRace copy = r;
            copy.id = race_base + r.id;
            copy.partition = partition_base + r.partition;
            copy.run = k;
            if (copy.ordered_after) copy.ordered_after->race += race_base;
            out.races.push_back(std::move(copy));
            races = std::max(races, r.id + 1);
        }
        for (const ReportPartition& p : m.partitions) {
            ReportPartition copy = p;
            copy.id = partition_base + p.id;
            for (std::uint32_t& id : copy.races)
                id += race_base;
            for (std::uint32_t& id : copy.after)
                id += partition_base;
            out.partitions.push_back(std::move(copy));
            partitions = std::max(partitions, p.id + 1);
        }
        for (const ReportMisuse& misuse : m.misuses) {
            ReportMisuse copy = misuse;
            copy.run = k;
            out.misuses.push_back(std::move(copy));
        }
        race_base += races;
        partition_base += partitions;
    }
    return out;
}

} // namespace firstrace
