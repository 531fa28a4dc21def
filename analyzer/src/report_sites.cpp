// Race sites: unordered pairs of source locations, the unit reports show and runs are compared by.
#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

#include "firstrace/triage_report.hpp"

namespace firstrace {
namespace {

SiteEnd end_of(const ReportSite& s) { return SiteEnd{s.file, s.line, s.column, s.function}; }

// The distinct (file, line) ends of one side of a race; an unknown end when it has no site.
std::vector<SiteEnd> side_ends(const std::vector<ReportSite>& sites) {
    std::map<std::string, SiteEnd> ends;
    for (const ReportSite& s : sites) ends.try_emplace(location_key(s.file, s.line), end_of(s));
    if (ends.empty()) ends.try_emplace(location_key("", 0), SiteEnd{});
    std::vector<SiteEnd> out;
    for (auto& [key, e] : ends) out.push_back(std::move(e));
    return out;
}

}  // namespace

std::string location_key(const std::string& file, std::uint32_t line) {
    if (file.empty()) return "<unknown>";
    return line == 0 ? file : file + ":" + std::to_string(line);
}

bool site_end_less(const SiteEnd& x, const SiteEnd& y) {
    return std::tie(x.file, x.line) < std::tie(y.file, y.line);
}

std::string site_key(const SiteEnd& x, const SiteEnd& y) {
    const bool swap = site_end_less(y, x);
    const SiteEnd& first = swap ? y : x;
    const SiteEnd& second = swap ? x : y;
    return location_key(first.file, first.line) + " <-> " + location_key(second.file, second.line);
}

RaceStatus RaceSite::strongest() const {
    if (feasible > 0) return RaceStatus::Feasible;
    if (feasible_ec > 0) return RaceStatus::FeasibleEc;
    return RaceStatus::Unvalidated;
}

std::vector<std::string> race_site_keys(const ReportRace& race) {
    std::vector<std::string> keys;
    for (const SiteEnd& x : side_ends(race.sites_a))
        for (const SiteEnd& y : side_ends(race.sites_b)) keys.push_back(site_key(x, y));
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    return keys;
}

std::vector<RaceSite> group_race_sites(const ReportModel& model) {
    std::map<std::uint32_t, bool> first_partition;
    for (const ReportPartition& p : model.partitions) first_partition[p.id] = p.first;
    std::map<std::string, RaceSite> sites;
    for (const ReportRace& r : model.races) {
        const auto ends_a = side_ends(r.sites_a);
        const auto ends_b = side_ends(r.sites_b);
        std::vector<std::string> seen;
        for (const SiteEnd& x : ends_a)
            for (const SiteEnd& y : ends_b) {
                const std::string key = site_key(x, y);
                if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
                seen.push_back(key);
                auto [it, inserted] = sites.try_emplace(key);
                RaceSite& s = it->second;
                if (inserted) {
                    s.key = key;
                    const bool swap = site_end_less(y, x);
                    s.first = swap ? y : x;
                    s.second = swap ? x : y;
                    s.first_partition = r.partition;
                }
                s.races.push_back(r.id);
                s.threads.insert(r.a.thread);
                s.threads.insert(r.b.thread);
                s.variables.insert(r.variables.begin(), r.variables.end());
                switch (r.status) {
                case RaceStatus::Feasible: ++s.feasible; break;
                case RaceStatus::FeasibleEc: ++s.feasible_ec; break;
                case RaceStatus::Unvalidated: ++s.unvalidated; break;
                }
                if (r.actual.value_or(false)) ++s.actual;
                auto f = first_partition.find(r.partition);
                if (f != first_partition.end() && f->second) s.in_first_partition = true;
                s.first_partition = std::min(s.first_partition, r.partition);
            }
    }
    std::vector<RaceSite> out;
    out.reserve(sites.size());
    for (auto& [key, s] : sites) {
        std::sort(s.races.begin(), s.races.end());
        out.push_back(std::move(s));
    }
    std::sort(out.begin(), out.end(), [](const RaceSite& x, const RaceSite& y) {
        return std::tie(x.first_partition, x.races.front()) < std::tie(y.first_partition, y.races.front());
    });
    return out;
}

std::map<std::uint32_t, std::vector<const RaceSite*>> sites_by_first_partition(const ReportModel& model,
                                                                               const std::vector<RaceSite>& sites) {
    std::unordered_map<std::uint32_t, std::uint32_t> partition_of;
    for (const ReportRace& r : model.races) partition_of[r.id] = r.partition;
    std::unordered_map<std::uint32_t, bool> first;
    for (const ReportPartition& p : model.partitions) first[p.id] = p.first;
    std::map<std::uint32_t, std::vector<const RaceSite*>> out;
    for (const RaceSite& s : sites) {
        std::set<std::uint32_t> partitions;
        for (std::uint32_t id : s.races) {
            const std::uint32_t p = partition_of[id];
            if (first[p]) partitions.insert(p);
        }
        for (std::uint32_t p : partitions) out[p].push_back(&s);
    }
    return out;
}

}  // namespace firstrace
