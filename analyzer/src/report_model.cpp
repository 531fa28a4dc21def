#include "firstrace/report_model.hpp"

#include <algorithm>

namespace firstrace {
namespace {

std::string site_kind(std::uint8_t flags) {
    std::string kind = (flags & kAccessRead) && (flags & kAccessWrite) ? "read-write"
                       : (flags & kAccessWrite)                        ? "write"
                                                                       : "read";
    return (flags & kAccessAtomic) ? "atomic-" + kind : kind;
}

std::vector<ReportSite> report_sites(const Trace& trace, const std::vector<std::uint32_t>& sites) {
    std::vector<ReportSite> out;
    for (std::uint32_t s : sites) {
        const AccessSite& site = trace.sites[s];
        ReportSite r;
        if (site.location < trace.locations.size()) {
            const SourceLocation& loc = trace.locations[site.location];
            r.file = loc.file;
            r.line = loc.line;
            r.column = loc.column;
            r.function = loc.function;
        }
        r.kind = site_kind(site.flags);
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace

ReportModel make_report_model(const Trace& trace, const AnalysisResult& result,
                              bool first_partitions_only) {
    ReportModel model;
    model.trace_path = trace.path;
    model.ordering = result.ordering;
    model.truncated = trace.truncated;
    model.counts = result.counts;
    model.races.reserve(result.races.size());
    for (const Race& race : result.races) {
        ReportRace r;
        r.id = race.id;
        r.a = {trace.processes[race.a.process].name, race.a.index};
        r.b = {trace.processes[race.b.process].name, race.b.index};
        r.status = race.status;
        r.tangle = race.tangle;
        r.actual = race.actual;
        r.partition = race.partition;
        if (first_partitions_only && !result.partitions[race.partition].first) {
            model.races.push_back(std::move(r));
            continue;
        }
        for (const Interval& c : race.conflicts) {
            if (!trace.variable_names.empty())
                for (std::uint64_t v = c.lo; v < c.hi; ++v)
                    r.variables.push_back(trace.describe({v, v + 1}));
            else
                r.variables.push_back(trace.describe(c));
        }
        r.sites_a = report_sites(trace, race.sites_a);
        r.sites_b = report_sites(trace, race.sites_b);
        model.races.push_back(std::move(r));
    }
    for (const Partition& p : result.partitions)
        model.partitions.push_back({p.id, p.first, p.races, p.after});
    return model;
}

std::string join_limited(const std::set<std::string>& items, std::size_t limit,
                         const char* ellipsis) {
    std::string out;
    std::size_t n = 0;
    for (const auto& item : items) {
        if (n++ == limit) {
            out += std::string(", ") + ellipsis + " (" + std::to_string(items.size()) + " in all)";
            break;
        }
        out += (out.empty() ? "" : ", ") + item;
    }
    return out;
}

std::string format_location(const ReportSite& site) {
    if (site.file.empty()) return "<unknown>";
    return site.line == 0 ? site.file : site.file + ":" + std::to_string(site.line);
}

} // namespace firstrace
