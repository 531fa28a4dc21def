// Selecting races for `firstrace report`: --first-only, --status, --file, --suppressions,
// --baseline, and the --fail-on exit-code policy.
#include <fnmatch.h>

#include <algorithm>
#include <map>
#include <set>

#include "firstrace/triage_report.hpp"
#include "kept_partitions_before.hpp"

namespace firstrace {
namespace {

bool file_matches(const std::string& pattern, const std::string& file) {
    if (file.empty()) return false;
    if (fnmatch(pattern.c_str(), file.c_str(), 0) == 0) return true;
    // A relative pattern also matches a trailing part of the path: "src/queue.c", "*.c".
    const std::string trailing = "*/" + pattern;
    return fnmatch(trailing.c_str(), file.c_str(), 0) == 0;
}

bool any_site_file_matches(const ReportRace& race, const std::vector<std::string>& patterns) {
    for (const auto* sites : {&race.sites_a, &race.sites_b})
        for (const ReportSite& s : *sites)
            for (const std::string& p : patterns)
                if (file_matches(p, s.file)) return true;
    return false;
}

} // namespace

bool filter_is_empty(const RaceFilter& filter) {
    return !filter.first_only && filter.statuses.empty() && filter.file_patterns.empty() &&
           (filter.suppressions == nullptr || filter.suppressions->rules().empty()) &&
           filter.baseline == nullptr;
}

ReportModel filter_report(const ReportModel& model, const RaceFilter& filter, FilterStats* stats) {
    FilterStats local;
    FilterStats& st = stats ? *stats : local;
    st = {};
    std::map<std::uint32_t, bool> first;
    for (const ReportPartition& p : model.partitions)
        first[p.id] = p.first;

    ReportModel out;
    out.trace_path = model.trace_path;
    out.ordering = model.ordering;
    out.truncated = model.truncated;
    out.counts = model.counts;
    std::set<std::uint32_t> kept;
    std::set<std::uint32_t>
        selected_out; // partitions with a race left out by --status / --first-only
    for (const ReportRace& r : model.races) {
        bool keep = true;
        if (filter.first_only) {
            auto f = first.find(r.partition);
            keep = f != first.end() && f->second;
        }
        if (keep && !filter.statuses.empty())
            keep = std::find(filter.statuses.begin(), filter.statuses.end(), r.status) !=
                   filter.statuses.end();
        if (keep && !filter.file_patterns.empty())
            keep = any_site_file_matches(r, filter.file_patterns);
        if (!keep && (filter.first_only || !filter.statuses.empty())) {
            // --status and --first-only select what to print; the race still orders the
            // partitions after it. Only hidden races (--file, suppressions, baseline) are
            // looked through when ranking.
            bool by_file =
                !filter.file_patterns.empty() && !any_site_file_matches(r, filter.file_patterns);
            if (!by_file) selected_out.insert(r.partition);
        }
        if (!keep) {
            ++st.filtered;
            continue;
        }
        if (filter.suppressions && filter.suppressions->suppresses(r)) {
            ++st.suppressed;
            continue;
        }
        if (filter.baseline) {
            bool new_site = false;
            for (const std::string& key : race_site_keys(r))
                new_site = new_site || !filter.baseline->count(key);
            if (!new_site) {
                ++st.baselined;
                continue;
            }
        }
        kept.insert(r.id);
        out.races.push_back(r);
    }
    // Ranking after filtering: a partition is first in the filtered view when no partition
    // that keeps a race (or one only deselected by --status / --first-only) is before it in the
    // partition DAG: partitions hidden by --file, suppressions or the baseline are looked
    // through, so hiding library noise never leaves a report without first partitions.
    // Partition ids follow a topological order of the DAG (DESIGN-NOTES), so one pass in id
    // order propagates "a kept partition is before me".
    const std::size_t count = model.partitions.size();
    std::vector<const ReportPartition*> by_id(count, nullptr);
    for (const ReportPartition& p : model.partitions)
        if (p.id < count) by_id[p.id] = &p;
    static const std::vector<std::uint32_t> kNoneAfter;
    const std::vector<bool> kept_before = kept_partitions_before(
        count,
        [&](std::size_t id) -> const std::vector<std::uint32_t>& {
            return by_id[id] != nullptr ? by_id[id]->after : kNoneAfter;
        },
        [&](std::size_t id) {
            if (by_id[id] == nullptr) return false;
            if (selected_out.count(by_id[id]->id) > 0) return true;
            const auto& races = by_id[id]->races;
            return std::any_of(races.begin(), races.end(),
                               [&](std::uint32_t r) { return kept.count(r) > 0; });
        });
    for (const ReportPartition& p : model.partitions) {
        ReportPartition q = p;
        q.races.clear();
        for (std::uint32_t id : p.races)
            if (kept.count(id)) q.races.push_back(id);
        q.first = !(p.id < count && kept_before[p.id]);
        if (!q.races.empty()) out.partitions.push_back(std::move(q));
    }
    st.kept = out.races.size();
    return out;
}

bool fails(const ReportModel& model, FailOn policy) {
    switch (policy) {
    case FailOn::None:
        return false;
    case FailOn::Any:
        return !model.races.empty();
    case FailOn::Feasible:
        return std::any_of(model.races.begin(), model.races.end(),
                           [](const ReportRace& r) { return r.status != RaceStatus::Unvalidated; });
    case FailOn::First: {
        std::set<std::uint32_t> first;
        for (const ReportPartition& p : model.partitions)
            if (p.first) first.insert(p.id);
        return std::any_of(model.races.begin(), model.races.end(),
                           [&](const ReportRace& r) { return first.count(r.partition) > 0; });
    }
    }
    return false;
}

} // namespace firstrace
