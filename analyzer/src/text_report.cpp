// What a person reads first: one line of counts, then every first partition with its races
// grouped by race site (unordered pair of source locations), many instances shown once.
#include <algorithm>
#include <map>
#include <ostream>
#include <set>

#include "firstrace/report_model.hpp"

namespace firstrace {
namespace {

std::string side_locations(const std::vector<ReportSite>& sites) {
    std::set<std::string> names;
    for (const auto& s : sites)
        names.insert(format_location(s));
    if (names.empty()) return "<unknown>";
    std::string out;
    for (const auto& n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out;
}

struct SiteGroup {
    std::string left, right;
    std::set<std::string> left_threads, right_threads;
    std::map<std::string, unsigned> statuses;
    std::set<std::string> variables;
    unsigned count = 0;
    unsigned actual = 0;
    std::set<std::uint32_t> tangles;
    std::uint32_t first_race = 0;
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
        std::map<std::pair<std::string, std::string>, SiteGroup> groups;
        for (std::uint32_t id : p.races) {
            const ReportRace& r = model.races[id];
            std::string left = side_locations(r.sites_a), right = side_locations(r.sites_b);
            std::string left_thread = r.a.thread, right_thread = r.b.thread;
            if (right < left) {
                std::swap(left, right);
                std::swap(left_thread, right_thread);
            }
            SiteGroup& g = groups[{left, right}];
            if (g.count == 0) {
                g.left = left;
                g.right = right;
                g.first_race = id;
            }
            ++g.count;
            g.left_threads.insert(left_thread);
            g.right_threads.insert(right_thread);
            ++g.statuses[to_string(r.status)];
            g.variables.insert(r.variables.begin(), r.variables.end());
            if (r.actual.value_or(false)) ++g.actual;
            if (r.tangle) g.tangles.insert(*r.tangle);
        }
        std::vector<const SiteGroup*> ordered;
        for (const auto& [key, g] : groups)
            ordered.push_back(&g);
        std::sort(ordered.begin(), ordered.end(), [](const SiteGroup* x, const SiteGroup* y) {
            return x->first_race < y->first_race;
        });
        for (const SiteGroup* g : ordered) {
            out << "  " << g->left << " [" << join(g->left_threads, 4) << "]  <->  " << g->right
                << " [" << join(g->right_threads, 4) << "]\n      ";
            bool first = true;
            for (const auto& [status, n] : g->statuses) {
                out << (first ? "" : ", ") << status;
                if (g->count > 1) out << " ×" << n;
                first = false;
            }
            if (g->count > 1)
                out << "  (" << g->count << " instances, first race #" << g->first_race << ")";
            else
                out << "  (race #" << g->first_race << ")";
            if (model.ordering == Ordering::Complete)
                out << (g->actual > 0 ? ", actual" : ", not actual");
            if (!g->tangles.empty()) out << ", tangled";
            out << "\n      on " << join(g->variables, 6) << "\n";
        }
    }
    if (later_partitions > 0)
        out << "\n"
            << later_races << (later_races == 1 ? " race" : " races") << " in " << later_partitions
            << (later_partitions == 1 ? " later partition" : " later partitions")
            << " may be artifacts of the first ones (--format json lists them).\n";
}

} // namespace firstrace
