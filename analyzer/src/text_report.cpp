// What a person reads first: one line of counts, then every first partition with its races
// grouped by race site (unordered pair of source locations), many instances shown once.
#include <algorithm>
#include <ostream>
#include <set>

#include "firstrace/report_model.hpp"
#include "firstrace/triage_report.hpp"

namespace firstrace {
namespace {

// Race sites listed per first partition before the rest is summarized in one line.
constexpr std::size_t kMaxSitesShown = 25;

// The race with this id; races are sorted by id but a filtered model may lack some. Null if absent.
const ReportRace* find_race(const ReportModel& model, std::uint32_t id) {
    const auto it = std::lower_bound(model.races.begin(), model.races.end(), id,
                                     [](const ReportRace& r, std::uint32_t v) { return r.id < v; });
    return it != model.races.end() && it->id == id ? &*it : nullptr;
}

void write_site(std::ostream& out, const ReportModel& model, const RaceSite& site) {
    out << "  " << location_key(site.first.file, site.first.line) << "  <->  "
        << location_key(site.second.file, site.second.line) << "  ["
        << join_limited(site.threads, 4) << "]\n      ";
    const std::size_t n = site.races.size();
    bool first = true;
    for (auto [status, count] : {std::pair{RaceStatus::Feasible, site.feasible},
                                 {RaceStatus::FeasibleEc, site.feasible_ec},
                                 {RaceStatus::Unvalidated, site.unvalidated}}) {
        if (count == 0) continue;
        out << (first ? "" : ", ") << to_string(status);
        if (n > 1) out << " ×" << count;
        first = false;
    }
    if (n > 1)
        out << "  (" << n << " races, first #" << site.races.front() << ")";
    else
        out << "  (race #" << site.races.front() << ")";
    if (model.ordering == Ordering::Complete)
        out << (site.actual > 0 ? ", actual" : ", not actual");
    const bool tangled = std::any_of(site.races.begin(), site.races.end(), [&](std::uint32_t id) {
        const ReportRace* race = find_race(model, id);
        return race != nullptr && race->tangle.has_value();
    });
    if (tangled) out << ", tangled";
    out << "\n      on " << join_limited(site.variables, 6) << "\n";
}

} // namespace

void write_text_report(std::ostream& out, const ReportModel& model) {
    const AnalysisCounts& c = model.counts;
    out << c.events << " events, " << c.processes << " processes: " << c.apparent
        << " apparent races";
    if (model.ordering == Ordering::Complete) out << " (" << c.actual << " actual)";
    out << "; " << c.feasible << " feasible, " << c.feasible_ec << " feasible-ec, " << c.unvalidated
        << " unvalidated; " << c.tangles << (c.tangles == 1 ? " tangle; " : " tangles; ")
        << c.partitions << (c.partitions == 1 ? " partition, " : " partitions, ")
        << c.first_partitions << " first\n";
    out << "(" << to_string(model.ordering) << " ordering, " << model.trace_path
        << (model.truncated ? ", TRUNCATED trace" : "") << ")\n";
    if (model.races.empty()) {
        out << "\nNo apparent data races.\n";
        return;
    }
    std::size_t later_races = 0, later_partitions = 0;
    for (const ReportPartition& p : model.partitions) {
        if (!p.first) {
            ++later_partitions;
            later_races += p.races.size();
            continue;
        }
        out << "\nFirst partition " << p.id << " (" << p.races.size()
            << (p.races.size() == 1 ? " race" : " races") << "):\n";
        // The race sites of this partition alone (race ids stay those of the whole model).
        ReportModel partition;
        partition.ordering = model.ordering;
        partition.partitions = {p};
        for (std::uint32_t id : p.races)
            if (const ReportRace* race = find_race(model, id)) partition.races.push_back(*race);
        const std::vector<RaceSite> sites = group_race_sites(partition);
        const std::size_t shown = std::min(sites.size(), kMaxSitesShown);
        for (std::size_t k = 0; k < shown; ++k)
            write_site(out, model, sites[k]);
        if (sites.size() > shown)
            out << "  … and " << sites.size() - shown
                << " more race sites (--format json lists every race)\n";
    }
    if (later_partitions > 0)
        out << "\n"
            << later_races << (later_races == 1 ? " race" : " races") << " in " << later_partitions
            << (later_partitions == 1 ? " later partition" : " later partitions")
            << " may be artifacts of the first ones (--format json lists them).\n";
}

} // namespace firstrace
