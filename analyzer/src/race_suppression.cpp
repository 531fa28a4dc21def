// Taking the races a program's ThreadSanitizer configuration hides out of an analysis result
// (race_suppression.hpp). Each race is looked at as TSan looks at a report
// (SuppressionCandidate, matched by Suppressions: the one definition of the matching, shared
// with `report --suppressions`): its race sites' call stacks, symbolized, with the module of
// each frame, and the global variables they share.
#include "firstrace/race_suppression.hpp"

#include <algorithm>
#include <map>
#include <ostream>
#include <set>
#include <unordered_map>

#include "firstrace/race_accesses.hpp"
#include "kept_partitions_before.hpp"
#include "report_call_stacks.hpp"
#include "report_sites.hpp"

namespace firstrace {
namespace {

class CandidateBuilder {
  public:
    explicit CandidateBuilder(const Trace& trace) : trace_(trace), finder_(trace) {}

    SuppressionCandidate of(const Race& race) {
        SuppressionCandidate c;
        const RaceAccesses& accesses = finder_.of(race);
        for (std::uint32_t s : accesses.sites_a)
            c.stacks_a.push_back(frames(s));
        for (std::uint32_t s : accesses.sites_b)
            c.stacks_b.push_back(frames(s));
        for (const ConflictingSitePair& p : conflicting_site_pairs(trace_, accesses))
            c.pairs.push_back({p.a, p.b, globals(p.shared)});
        return c;
    }

  private:
    std::string module_of(std::uint64_t pc) const {
        if (pc == 0 || !trace_.metadata) return {};
        for (const LoadedModule& m : trace_.metadata->modules)
            if (pc >= m.lo && pc < m.hi) return m.path;
        return {};
    }

    // Symbolized once per site: races share their sites (a site is in every race of its event).
    const std::vector<SuppressionFrame>& frames(std::uint32_t site) {
        auto [it, added] = frames_.try_emplace(site);
        if (!added) return it->second;
        std::vector<SuppressionFrame>& out = it->second;
        const AccessSite& s = trace_.sites[site];
        for (std::uint32_t l : call_stack(trace_, s.location, s.context))
            if (l < trace_.locations.size()) {
                const SourceLocation& loc = trace_.locations[l];
                out.push_back({loc.function, loc.file, module_of(loc.pc)});
            }
        return out;
    }
    std::unordered_map<std::uint32_t, std::vector<SuppressionFrame>> frames_;

    // The data symbols (global variables) holding the shared bytes (STD traces: the variables).
    std::vector<std::string> globals(const std::vector<Interval>& shared) const {
        std::vector<std::string> out;
        for (const Interval& key : shared) {
            if (!trace_.variable_names.empty()) {
                for (std::uint64_t v = key.lo; v < key.hi && v < trace_.variable_names.size(); ++v)
                    out.push_back(trace_.variable_names[v]);
                continue;
            }
            const Interval range = program_range(key);
            const auto& symbols = trace_.data_symbols;
            auto it =
                std::upper_bound(symbols.begin(), symbols.end(), range.lo,
                                 [](std::uint64_t a, const DataSymbol& s) { return a < s.lo; });
            // every symbol overlapping the range (sorted by lo, disjoint)
            if (it != symbols.begin() && std::prev(it)->hi > range.lo) --it;
            for (; it != symbols.end() && it->lo < range.hi; ++it)
                out.push_back(it->name);
        }
        return out;
    }

    const Trace& trace_;
    RaceAccessFinder finder_;
};

} // namespace

std::uint64_t suppress_races(const Trace& trace, AnalysisResult& result,
                             const TsanConfiguration& tsan) {
    if (!tsan.filters() || result.races.empty()) return 0;
    std::vector<bool> hidden(result.races.size(), !tsan.report_bugs);
    if (tsan.report_bugs) {
        CandidateBuilder builder(trace);
        for (std::size_t i = 0; i < result.races.size(); ++i) {
            const SuppressionCandidate c = builder.of(result.races[i]);
            for (const Suppressions& s : tsan.suppressions)
                if (!hidden[i] && s.suppressing_rule(c) != nullptr) hidden[i] = true;
        }
    }
    const auto suppressed =
        static_cast<std::uint64_t>(std::count(hidden.begin(), hidden.end(), true));
    if (suppressed == 0) return 0;

    // Partitions keeping a race; in id order (a topological order of the partition DAG), a
    // partition is first when no kept partition is before it, looking through hidden ones.
    const std::size_t np = result.partitions.size();
    std::vector<bool> keeps(np, false);
    for (std::size_t i = 0; i < result.races.size(); ++i)
        if (!hidden[i]) keeps[result.races.partition(i)] = true;
    const std::vector<bool> kept_before = kept_partitions_before(
        np, [&](std::size_t p) -> const auto& { return result.partitions[p].after; },
        [&](std::size_t p) { return keeps[p]; });
    // kept successors of each partition, through hidden ones (reverse id order: successors
    // have larger ids)
    std::vector<std::set<std::uint32_t>> kept_after(np);
    for (std::size_t p = np; p-- > 0;)
        for (std::uint32_t next : result.partitions[p].after) {
            if (next >= np) continue;
            if (keeps[next])
                kept_after[p].insert(next);
            else
                kept_after[p].insert(kept_after[next].begin(), kept_after[next].end());
        }
    // New ids: kept first partitions, then the other kept ones, each in id order.
    std::vector<std::uint32_t> new_id(np, kNone);
    std::vector<Partition> partitions;
    for (const bool first : {true, false})
        for (std::size_t p = 0; p < np; ++p)
            if (keeps[p] && !kept_before[p] == first) {
                new_id[p] = static_cast<std::uint32_t>(partitions.size());
                Partition q;
                q.id = new_id[p];
                q.first = first;
                partitions.push_back(q);
            }
    for (std::size_t p = 0; p < np; ++p) {
        if (!keeps[p]) continue;
        for (std::uint32_t next : kept_after[p])
            partitions[new_id[p]].after.push_back(new_id[next]);
        std::sort(partitions[new_id[p]].after.begin(), partitions[new_id[p]].after.end());
    }

    RaceList races;
    races.reserve(result.races.size() - suppressed);
    AnalysisCounts& counts = result.counts;
    counts.apparent = counts.actual = counts.feasible = counts.feasible_ec = counts.unvalidated = 0;
    std::set<std::uint32_t> tangles;
    for (std::size_t i = 0; i < result.races.size(); ++i) {
        if (hidden[i]) continue;
        Race r = result.races[i];
        r.id = static_cast<std::uint32_t>(races.size());
        r.partition = new_id[r.partition];
        ++partitions[r.partition].race_count;
        ++counts.apparent;
        counts.actual += r.actual.value_or(false) ? 1 : 0;
        counts.feasible += r.status == RaceStatus::Feasible ? 1 : 0;
        counts.feasible_ec += r.status == RaceStatus::FeasibleEc ? 1 : 0;
        counts.unvalidated += r.status == RaceStatus::Unvalidated ? 1 : 0;
        if (r.tangle) tangles.insert(*r.tangle);
        races.push_back(r);
    }
    counts.tangles = tangles.size();
    counts.partitions = partitions.size();
    counts.first_partitions = static_cast<std::uint64_t>(std::count_if(
        partitions.begin(), partitions.end(), [](const Partition& p) { return p.first; }));
    result.races = std::move(races);
    result.partitions = std::move(partitions);
    return suppressed;
}

void write_suppression_summary(std::ostream& out, const TsanConfiguration& tsan,
                               std::uint64_t suppressed) {
    if (!tsan.report_bugs) {
        out << "report_bugs=0 (the program's ThreadSanitizer options): " << suppressed
            << (suppressed == 1 ? " race" : " races") << " not reported\n";
        return;
    }
    if (suppressed == 0) return;
    out << suppressed << (suppressed == 1 ? " race" : " races")
        << " suppressed by the program's ThreadSanitizer suppressions:\n";
    for (const Suppressions& s : tsan.suppressions)
        for (const Suppressions::Rule& rule : s.rules())
            if (rule.hits > 0)
                out << "  " << rule.hits << " " << rule.type << ":" << rule.pattern << " ("
                    << s.file() << ":" << rule.line << ")\n";
}

} // namespace firstrace
