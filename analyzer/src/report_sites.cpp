// Race sites: unordered pairs of source locations, the unit reports show and runs are compared by.
#include <algorithm>
#include <tuple>
#include <unordered_map>

#include "firstrace/triage_report.hpp"

namespace firstrace {
namespace {

SiteEnd end_of(const ReportSite& s) {
    return SiteEnd{s.file, s.line, s.column, s.function};
}

// The distinct (file, line) ends of one side of a race; an unknown end when it has no site.
struct End {
    SiteEnd end;
    bool writes = false;
};

// The distinct (file, line) ends of one side of a race, each with whether it writes; an unknown
// (writing) end when the side has no site.
std::vector<End> side_ends(const std::vector<ReportSite>& sites) {
    std::vector<End> out;
    for (const ReportSite& s : sites) {
        const bool writes = s.kind.find("write") != std::string::npos;
        auto it = std::find_if(out.begin(), out.end(), [&](const End& e) {
            return location_key(e.end.file, e.end.line) == location_key(s.file, s.line);
        });
        if (it == out.end())
            out.push_back({end_of(s), writes});
        else
            it->writes = it->writes || writes;
    }
    if (out.empty()) out.push_back({SiteEnd{}, true});
    return out;
}

// The race sites of one race: pairs of an a-end and a b-end, at least one of them writing (all
// pairs, should no end write).
template <class F> void for_each_site_pair(const ReportRace& race, F&& f) {
    const auto a = side_ends(race.sites_a);
    const auto b = side_ends(race.sites_b);
    bool any = false;
    for (const End& x : a)
        for (const End& y : b)
            any = any || x.writes || y.writes;
    for (const End& x : a)
        for (const End& y : b)
            if (x.writes || y.writes || !any) f(x.end, y.end);
}

} // namespace

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
    for_each_site_pair(race,
                       [&](const SiteEnd& x, const SiteEnd& y) { keys.push_back(site_key(x, y)); });
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    return keys;
}

std::vector<RaceSite> group_race_sites(const ReportModel& model) {
    std::unordered_map<std::uint32_t, bool> first_partition;
    for (const ReportPartition& p : model.partitions)
        first_partition[p.id] = p.first;
    std::unordered_map<std::string, std::size_t> index;
    std::vector<RaceSite> sites;
    std::vector<std::size_t> seen;
    for (const ReportRace& r : model.races) {
        const auto f = first_partition.find(r.partition);
        const bool first = f != first_partition.end() && f->second;
        seen.clear();
        for_each_site_pair(r, [&](const SiteEnd& x, const SiteEnd& y) {
            auto [it, inserted] = index.try_emplace(site_key(x, y), sites.size());
            if (std::find(seen.begin(), seen.end(), it->second) != seen.end()) return;
            seen.push_back(it->second);
            if (inserted) {
                RaceSite site;
                site.key = it->first;
                const bool swap = site_end_less(y, x);
                site.first = swap ? y : x;
                site.second = swap ? x : y;
                site.first_partition = r.partition;
                sites.push_back(std::move(site));
            }
            RaceSite& s = sites[it->second];
            s.races.push_back(r.id);
            s.threads.insert(r.a.thread);
            s.threads.insert(r.b.thread);
            s.variables.insert(r.variables.begin(), r.variables.end());
            switch (r.status) {
            case RaceStatus::Feasible:
                ++s.feasible;
                break;
            case RaceStatus::FeasibleEc:
                ++s.feasible_ec;
                break;
            case RaceStatus::Unvalidated:
                ++s.unvalidated;
                break;
            }
            if (r.actual.value_or(false)) ++s.actual;
            if (first) s.in_first_partition = true;
            s.first_partition = std::min(s.first_partition, r.partition);
        });
    }
    for (RaceSite& s : sites)
        std::sort(s.races.begin(), s.races.end());
    std::sort(sites.begin(), sites.end(), [](const RaceSite& x, const RaceSite& y) {
        return std::tie(x.first_partition, x.races.front(), x.key) <
               std::tie(y.first_partition, y.races.front(), y.key);
    });
    return sites;
}

std::map<std::uint32_t, std::vector<const RaceSite*>>
sites_by_first_partition(const ReportModel& model, const std::vector<RaceSite>& sites) {
    std::unordered_map<std::uint32_t, std::uint32_t> partition_of;
    for (const ReportRace& r : model.races)
        partition_of[r.id] = r.partition;
    std::unordered_map<std::uint32_t, bool> first;
    for (const ReportPartition& p : model.partitions)
        first[p.id] = p.first;
    std::map<std::uint32_t, std::vector<const RaceSite*>> out;
    for (const RaceSite& s : sites) {
        std::set<std::uint32_t> partitions;
        for (std::uint32_t id : s.races) {
            const std::uint32_t p = partition_of[id];
            if (first[p]) partitions.insert(p);
        }
        for (std::uint32_t p : partitions)
            out[p].push_back(&s);
    }
    return out;
}

} // namespace firstrace
