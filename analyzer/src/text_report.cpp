// What a person reads first: one line of counts, then every first partition with its races
// grouped by race site (unordered pair of source locations), many instances shown once.
#include <algorithm>
#include <map>
#include <ostream>
#include <set>

#include "firstrace/report_model.hpp"

namespace firstrace {
namespace {

// Race sites listed per first partition before the rest is summarized in one line.
constexpr std::size_t kMaxSitesShown = 25;

struct SiteGroup {
    std::string left, right;
    std::set<std::string> left_threads, right_threads;
    std::map<std::string, unsigned> statuses;
    std::set<std::string> variables;
    unsigned count = 0;
    unsigned actual = 0;
    std::set<std::uint32_t> tangles;
    std::uint32_t first_race = 0;
    std::uint32_t last_race = 0;
};

std::string join(const std::set<std::string>& items, std::size_t limit) {
    std::string out;
    std::size_t n = 0;
    for (const auto& item : items) {
        if (n++ == limit) {
            out += ", … (" + std::to_string(items.size()) + " in all)";
            break;
        }
        out += (out.empty() ? "" : ", ") + item;
    }
    return out;
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
        // A race site is an unordered pair of source locations, one per side, at least one
        // of them writing; a race counts for every race site it touches.
        std::map<std::pair<std::string, std::string>, SiteGroup> groups;
        for (std::uint32_t id : p.races) {
            const ReportRace& r = model.races[id];
            std::map<std::string, bool> left_sites, right_sites; // location -> writes
            for (const auto& site : r.sites_a)
                left_sites[format_location(site)] |= site.kind.find("write") != std::string::npos;
            for (const auto& site : r.sites_b)
                right_sites[format_location(site)] |= site.kind.find("write") != std::string::npos;
            if (left_sites.empty()) left_sites["<unknown>"] = true;
            if (right_sites.empty()) right_sites["<unknown>"] = true;
            for (const auto& [la, wa] : left_sites)
                for (const auto& [lb, wb] : right_sites) {
                    if (!wa && !wb) continue;
                    const bool swap = lb < la;
                    SiteGroup& g = groups[swap ? std::pair{lb, la} : std::pair{la, lb}];
                    if (g.count == 0) {
                        g.left = swap ? lb : la;
                        g.right = swap ? la : lb;
                        g.first_race = id;
                    }
                    g.left_threads.insert(swap ? r.b.thread : r.a.thread);
                    g.right_threads.insert(swap ? r.a.thread : r.b.thread);
                    if (g.count > 0 && g.last_race == id) continue; // both orientations of one race
                    g.last_race = id;
                    ++g.count;
                    ++g.statuses[to_string(r.status)];
                    g.variables.insert(r.variables.begin(), r.variables.end());
                    if (r.actual.value_or(false)) ++g.actual;
                    if (r.tangle) g.tangles.insert(*r.tangle);
                }
        }
        std::vector<const SiteGroup*> ordered;
        for (const auto& [key, g] : groups)
            ordered.push_back(&g);
        std::sort(ordered.begin(), ordered.end(), [](const SiteGroup* x, const SiteGroup* y) {
            return x->first_race != y->first_race ? x->first_race < y->first_race
                                                  : x->right < y->right;
        });
        const std::size_t shown = std::min<std::size_t>(ordered.size(), kMaxSitesShown);
        for (std::size_t k = 0; k < shown; ++k) {
            const SiteGroup* g = ordered[k];
            out << "  " << g->left << " [" << join(g->left_threads, 4) << "]  <->  " << g->right
                << " [" << join(g->right_threads, 4) << "]\n      ";
            bool first = true;
            for (const auto& [status, n] : g->statuses) {
                out << (first ? "" : ", ") << status;
                if (g->count > 1) out << " ×" << n;
                first = false;
            }
            if (g->count > 1)
                out << "  (" << g->count << " races, first #" << g->first_race << ")";
            else
                out << "  (race #" << g->first_race << ")";
            if (model.ordering == Ordering::Complete)
                out << (g->actual > 0 ? ", actual" : ", not actual");
            if (!g->tangles.empty()) out << ", tangled";
            out << "\n      on " << join(g->variables, 6) << "\n";
        }
        if (ordered.size() > shown)
            out << "  … and " << ordered.size() - shown
                << " more race sites (--format json lists every race)\n";
    }
    if (later_partitions > 0)
        out << "\n"
            << later_races << (later_races == 1 ? " race" : " races") << " in " << later_partitions
            << (later_partitions == 1 ? " later partition" : " later partitions")
            << " may be artifacts of the first ones (--format json lists them).\n";
}

} // namespace firstrace
