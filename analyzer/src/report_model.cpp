#include "firstrace/report_model.hpp"

#include <algorithm>

#include "report_call_stacks.hpp"
#include "report_sites.hpp"

namespace firstrace {
namespace {

std::string site_kind(std::uint8_t flags) {
    std::string kind = (flags & kAccessRead) && (flags & kAccessWrite) ? "read-write"
                       : (flags & kAccessWrite)                        ? "write"
                                                                       : "read";
    return (flags & kAccessAtomic) ? "atomic-" + kind : kind;
}

ReportFrame frame_of(const SourceLocation& loc) {
    return ReportFrame{loc.file, loc.line, loc.column, loc.function};
}

} // namespace

ReportSite make_report_site(const Trace& trace, std::uint32_t s) {
    const AccessSite& site = trace.sites[s];
    ReportSite r;
    r.kind = site_kind(site.flags);
    if (site.location >= trace.locations.size()) return r;
    const std::vector<std::uint32_t> stack = call_stack(trace, site.location, site.context);
    const std::uint32_t headline = headline_location(trace, stack);
    const ReportFrame h = frame_of(trace.locations[headline]);
    r.file = h.file;
    r.line = h.line;
    r.column = h.column;
    r.function = h.function;
    // A stack of the access alone says nothing the headline does not.
    if (stack.size() > 1)
        for (std::uint32_t l : stack)
            r.stack.push_back(frame_of(trace.locations[l]));
    return r;
}

ReportModel make_report_model(const Trace& trace, const AnalysisResult& result, bool listed_only) {
    ReportModel model = make_report_header(trace, result);
    model.races.reserve(result.races.size());
    const MemoryNames names(trace);
    for (const Race& race : result.races) {
        ReportRace r;
        r.id = race.id;
        r.a = {trace.processes[race.a.process].name, race.a.index};
        r.b = {trace.processes[race.b.process].name, race.b.index};
        r.status = race.status;
        r.tangle = race.tangle;
        r.actual = race.actual;
        r.partition = race.partition;
        if (listed_only && !result.partitions[race.partition].first &&
            race.status == RaceStatus::Unvalidated) {
            model.races.push_back(std::move(r));
            continue;
        }
        for (const Interval& c : race.conflicts) {
            if (!trace.variable_names.empty())
                for (std::uint64_t v = c.lo; v < c.hi; ++v)
                    r.variables.push_back(names.name({v, v + 1}));
            else
                r.variables.push_back(names.name(c));
        }
        for (std::uint32_t s : race.sites_a)
            r.sites_a.push_back(make_report_site(trace, s));
        for (std::uint32_t s : race.sites_b)
            r.sites_b.push_back(make_report_site(trace, s));
        for (const ConflictingSitePair& p : conflicting_site_pairs(trace, race))
            r.pairs.push_back({p.a, p.b, shared_variable_name(trace, names, p.shared)});
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

ReportModel make_report_header(const Trace& trace, const AnalysisResult& result) {
    ReportModel model;
    model.trace_path = trace.path;
    model.ordering = result.ordering;
    model.truncated = trace.truncated;
    model.counts = result.counts;
    return model;
}

} // namespace firstrace
