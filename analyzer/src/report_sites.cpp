// Race sites (DESIGN "Outputs"): a race site is an unordered pair (access site of one event,
// access site of the other) whose byte ranges intersect, at least one writing and not both
// atomic, named by the headline frame of each side, with the variable they conflict on. The
// instances are computed once on the trace (conflicting_site_pairs); reports group them by the
// (file, line) pair of the two headline locations.
#include "report_sites.hpp"

#include <algorithm>
#include <functional>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "firstrace/triage_report.hpp"

namespace firstrace {
namespace {

// Appends a ∩ b (both sorted, disjoint) to out.
void intersect(const Interval* a, std::size_t na, const Interval* b, std::size_t nb,
               std::vector<Interval>& out) {
    std::size_t i = 0, j = 0;
    while (i < na && j < nb) {
        const std::uint64_t lo = std::max(a[i].lo, b[j].lo);
        const std::uint64_t hi = std::min(a[i].hi, b[j].hi);
        if (lo < hi) out.push_back({lo, hi});
        if (a[i].hi < b[j].hi)
            ++i;
        else
            ++j;
    }
}

bool writes(std::uint8_t flags) {
    return (flags & kAccessWrite) != 0;
}
bool atomic(std::uint8_t flags) {
    return (flags & kAccessAtomic) != 0;
}

// (file, line) of a headline location, hashed without building a string.
struct EndKey {
    std::string_view file;
    std::uint32_t line = 0;
    friend bool operator==(const EndKey&, const EndKey&) = default;
};
struct EndKeyHash {
    std::size_t operator()(const EndKey& k) const {
        return std::hash<std::string_view>()(k.file) * 31 + k.line;
    }
};

// Interns the (file, line) ends of a model's sites: ends compare by their dense ids, ordered
// like site_end_less.
class EndTable {
  public:
    std::uint32_t id(const ReportSite& s) {
        auto [it, inserted] =
            ids_.try_emplace(EndKey{s.file, s.line}, static_cast<std::uint32_t>(ends_.size()));
        if (inserted) ends_.push_back(SiteEnd{s.file, s.line, s.column, s.function});
        return it->second;
    }
    const SiteEnd& end(std::uint32_t id) const { return ends_[id]; }

  private:
    std::unordered_map<EndKey, std::uint32_t, EndKeyHash> ids_;
    std::vector<SiteEnd> ends_;
};

// Calls f(a-site, b-site, variable) for each race site instance of the race; a race without
// any (a hand-made model without sites) is one instance of the unknown pair.
template <class F> void for_each_instance(const ReportRace& race, F&& f) {
    static const ReportSite unknown;
    static const std::string none;
    bool any = false;
    for (const ReportSitePair& p : race.pairs) {
        if (p.a >= race.sites_a.size() || p.b >= race.sites_b.size()) continue;
        f(race.sites_a[p.a], race.sites_b[p.b], p.variable);
        any = true;
    }
    if (!any) f(unknown, unknown, none);
}

} // namespace

std::vector<ConflictingSitePair> conflicting_site_pairs(const Trace& trace, const Race& race) {
    std::vector<ConflictingSitePair> out;
    std::vector<Interval> both;
    for (std::uint32_t i = 0; i < race.sites_a.size(); ++i) {
        const AccessSite& x = trace.sites[race.sites_a[i]];
        for (std::uint32_t j = 0; j < race.sites_b.size(); ++j) {
            const AccessSite& y = trace.sites[race.sites_b[j]];
            if (!writes(x.flags) && !writes(y.flags)) continue;
            if (atomic(x.flags) && atomic(y.flags)) continue;
            both.clear();
            intersect(trace.ranges.data() + x.first_range, x.range_count,
                      trace.ranges.data() + y.first_range, y.range_count, both);
            if (both.empty()) continue;
            ConflictingSitePair pair{i, j, {}};
            // Only the race's conflicting bytes: storage private to both processes is no
            // conflict (Trace::private_to_both) and was left out of race.conflicts.
            intersect(both.data(), both.size(), race.conflicts.data(), race.conflicts.size(),
                      pair.shared);
            if (!pair.shared.empty()) out.push_back(std::move(pair));
        }
    }
    return out;
}

std::string shared_variable_name(const Trace& trace, const MemoryNames& names,
                                 const std::vector<Interval>& shared) {
    constexpr std::size_t kShown = 3;
    std::string out;
    std::size_t n = 0;
    auto add = [&](const Interval& r) {
        if (n++ < kShown) out += (out.empty() ? "" : ", ") + names.name(r);
    };
    for (const Interval& r : shared) {
        if (!trace.variable_names.empty())
            for (std::uint64_t v = r.lo; v < r.hi; ++v)
                add({v, v + 1});
        else
            add(r);
    }
    if (n > kShown) out += ", … (" + std::to_string(n) + " in all)";
    return out;
}

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
    for_each_instance(race, [&](const ReportSite& a, const ReportSite& b, const std::string&) {
        keys.push_back(site_key(SiteEnd{a.file, a.line, a.column, a.function},
                                SiteEnd{b.file, b.line, b.column, b.function}));
    });
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    return keys;
}

std::vector<RaceSite> group_race_sites(const ReportModel& model) {
    std::vector<bool> first_partition;
    for (const ReportPartition& p : model.partitions) {
        if (p.id >= first_partition.size()) first_partition.resize(p.id + 1, false);
        first_partition[p.id] = p.first;
    }
    EndTable ends;
    std::unordered_map<std::uint64_t, std::size_t> index; // (end, end) -> sites index
    std::vector<RaceSite> sites;
    std::vector<std::size_t> seen;
    for (const ReportRace& r : model.races) {
        const bool first = r.partition < first_partition.size() && first_partition[r.partition];
        seen.clear();
        for_each_instance(
            r, [&](const ReportSite& a, const ReportSite& b, const std::string& variable) {
                std::uint32_t x = ends.id(a), y = ends.id(b);
                const bool swap = site_end_less(ends.end(y), ends.end(x));
                if (swap) std::swap(x, y);
                auto [it, inserted] = index.try_emplace((std::uint64_t(x) << 32) | y, sites.size());
                if (inserted) {
                    RaceSite site;
                    site.first = ends.end(x);
                    site.second = ends.end(y);
                    site.key = site_key(site.first, site.second);
                    site.first_partition = r.partition;
                    sites.push_back(std::move(site));
                }
                RaceSite& s = sites[it->second];
                if (!variable.empty()) s.variables.insert(variable);
                // A race is counted once per site, however many of its site pairs map to it.
                if (std::find(seen.begin(), seen.end(), it->second) != seen.end()) return;
                seen.push_back(it->second);
                s.races.push_back(r.id);
                s.runs.insert(r.run);
                s.threads.insert(r.a.thread);
                s.threads.insert(r.b.thread);
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
                // The access pair shown is that of the strongest, then earliest, instance.
                if (inserted || r.status < s.example_status) {
                    s.access_first = swap ? b : a;
                    s.access_second = swap ? a : b;
                    s.thread_first = swap ? r.b.thread : r.a.thread;
                    s.thread_second = swap ? r.a.thread : r.b.thread;
                    s.event_first = swap ? r.b : r.a;
                    s.event_second = swap ? r.a : r.b;
                    s.example_ordered_after = r.ordered_after;
                    s.example_race = r.id;
                    s.example_status = r.status;
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
