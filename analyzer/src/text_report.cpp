// What a person reads first (DESIGN "Outputs"): one line of counts, then the race sites in the
// order a person should look at them: (1) the sites of first partitions, (2) every other site
// with a validated (feasible / feasible-ec) race — proven real wherever the ordering put it —,
// (3) one line counting the unvalidated races of later partitions. Each site once, with its
// instance and status counts, then a ThreadSanitizer-like block: both accesses with kind,
// thread and call stack, and the memory they share.
#include <algorithm>
#include <ostream>

#include "firstrace/printable_text.hpp"
#include "firstrace/report_model.hpp"
#include "firstrace/triage_report.hpp"

namespace firstrace {
namespace {

// ANSI colour codes, empty when not on a terminal.
struct Style {
    bool on = false;
    const char* bold() const { return on ? "\033[1m" : ""; }
    const char* red() const { return on ? "\033[1;31m" : ""; }
    const char* yellow() const { return on ? "\033[33m" : ""; }
    const char* blue() const { return on ? "\033[34m" : ""; }
    const char* dim() const { return on ? "\033[2m" : ""; }
    const char* reset() const { return on ? "\033[0m" : ""; }
};

std::string capitalized(std::string s) {
    if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
    return s;
}

// A function name cut to what fits a line: C++ template instances run to hundreds of
// characters; the JSON, HTML and SARIF carry them whole.
std::string short_function(const std::string& f) {
    constexpr std::size_t kMax = 60;
    if (f.empty()) return "??";
    return f.size() <= kMax ? f : f.substr(0, kMax - 1) + "…";
}

void write_frame(std::ostream& out, const Style& st, std::size_t depth, const ReportFrame& f,
                 bool headline) {
    out << "      " << st.dim() << "#" << depth << st.reset() << " "
        << printable_text(short_function(f.function)) << " " << (headline ? st.blue() : "")
        << location_key(f.file, f.line) << (headline ? st.reset() : "") << "\n";
}

// "Write by thread 1 in producer at ring.c:40", then the call stack: frames in library code
// above the headline frame folded into one line, the headline frame and its callers up to
// `max_frames` lines in all (TSan-like, compact enough that several sites fit a screen).
void write_access(std::ostream& out, const Style& st, const ReportSite& access,
                  const ReportEvent& event, const std::string& thread, std::size_t max_frames) {
    out << "    " << st.bold() << capitalized(access.kind) << st.reset() << " by "
        << printable_text(thread);
    if (!access.function.empty()) out << " in " << printable_text(short_function(access.function));
    out << " at " << st.blue() << printable_text(location_key(access.file, access.line))
        << st.reset() << "\n";
    if (access.stack.empty()) {
        if (const std::string locks = held_locks_text(event); !locks.empty())
            out << "      holding " << printable_text(locks) << "\n";
        return;
    }
    std::size_t headline = 0;
    while (headline < access.stack.size() && !(access.stack[headline].file == access.file &&
                                               access.stack[headline].line == access.line))
        ++headline;
    if (headline == access.stack.size()) headline = 0;
    std::size_t lines = 0;
    if (headline > 0) {
        out << "      " << st.dim() << "#0-#" << headline - 1 << " in library code, innermost "
            << short_function(access.stack[0].function) << st.reset() << "\n";
        ++lines;
    }
    std::size_t k = headline;
    for (; k < access.stack.size() && lines < max_frames; ++k, ++lines)
        write_frame(out, st, k, access.stack[k], k == headline);
    if (k < access.stack.size())
        out << "      " << st.dim() << "… " << access.stack.size() - k << " more frames"
            << st.reset() << "\n";
    if (const std::string locks = held_locks_text(event); !locks.empty())
        out << "      holding " << printable_text(locks) << "\n";
}

void write_site(std::ostream& out, const Style& st, const ReportModel& model, const RaceSite& site,
                std::size_t number, const TextReportOptions& options) {
    out << "\n"
        << st.bold() << "Race site " << number << ": "
        << printable_text(location_key(site.first.file, site.first.line)) << "  <->  "
        << printable_text(location_key(site.second.file, site.second.line)) << st.reset() << "\n";
    out << "  ";
    // Each instance has one status (listed_race_sites keeps the race ids of none but the
    // smallest).
    const std::size_t n = std::size_t(site.feasible) + site.feasible_ec + site.unvalidated;
    bool first = true;
    for (auto [status, count] : {std::pair{RaceStatus::Feasible, site.feasible},
                                 {RaceStatus::FeasibleEc, site.feasible_ec},
                                 {RaceStatus::Unvalidated, site.unvalidated}}) {
        if (count == 0) continue;
        out << (first ? "" : ", ") << (status == RaceStatus::Unvalidated ? st.yellow() : st.red())
            << to_string(status) << st.reset() << " ×" << count;
        first = false;
    }
    out << "  (" << n << (n == 1 ? " race" : " races") << ", "
        << (site.in_first_partition ? "first partition" : "later partition");
    if (model.ordering == Ordering::Complete && site.actual > 0)
        out << ", " << site.actual << " actual";
    out << ", e.g. race #" << site.example_race;
    if (model.runs > 1) out << "; found in " << site.runs.size() << " of " << model.runs << " runs";
    out << ")\n";
    write_access(out, st, site.access_first, site.event_first, site.thread_first,
                 options.max_frames);
    write_access(out, st, site.access_second, site.event_second, site.thread_second,
                 options.max_frames);
    if (!site.variables.empty())
        out << "    Memory: " << printable_text(join_limited(site.variables, 4)) << "\n";
    // Where the two threads were created (ThreadSanitizer's "Thread T1 created at").
    std::string created = creation_text(site.event_first);
    if (site.event_second.thread != site.event_first.thread) {
        const std::string second = creation_text(site.event_second);
        created += created.empty() || second.empty() ? second : "; " + second;
    }
    if (!created.empty())
        out << "    " << st.dim() << printable_text(created) << st.reset() << "\n";
    if (site.threads.size() > 2)
        out << "    Threads: " << printable_text(join_limited(site.threads, 6)) << "\n";
    if (site.example_ordered_after && !site.in_first_partition)
        out << "    " << st.dim() << "Ordered after "
            << printable_text(ordering_text(*site.example_ordered_after, 4)) << st.reset() << "\n";
}

// Misuses of synchronization objects (POSIX: undefined behaviour), apart from the races and
// never counted as one: what the program did, the thread and the call's stack.
void write_misuses(std::ostream& out, const Style& st, const ReportModel& model,
                   const TextReportOptions& options) {
    if (model.misuses.empty()) return;
    const std::size_t n = model.misuses.size();
    out << "\n"
        << st.bold() << n << (n == 1 ? " misuse" : " misuses")
        << " of synchronization objects (undefined behaviour, not data races):" << st.reset()
        << "\n";
    std::size_t shown = 0;
    for (const ReportMisuse& m : model.misuses) {
        if (shown++ == options.max_sites) {
            out << "  … and " << n - options.max_sites << " more (--format json lists them)\n";
            break;
        }
        out << "  " << st.yellow() << printable_text(misuse_text(m)) << st.reset() << "\n    by "
            << printable_text(m.thread);
        if (!m.at.headline.function.empty())
            out << " in " << printable_text(short_function(m.at.headline.function));
        out << " at " << st.blue()
            << printable_text(location_key(m.at.headline.file, m.at.headline.line)) << st.reset();
        if (model.runs > 1) out << " (run " << m.run + 1 << ")";
        out << "\n";
        std::size_t k = 0;
        for (; k < m.at.frames.size() && k < options.max_frames; ++k)
            write_frame(out, st, k, m.at.frames[k], m.at.frames[k] == m.at.headline);
        if (k < m.at.frames.size())
            out << "      " << st.dim() << "… " << m.at.frames.size() - k << " more frames"
                << st.reset() << "\n";
    }
}

} // namespace

void write_text_report(std::ostream& out, const ReportModel& model,
                       const TextReportOptions& options) {
    write_text_report(out, model, listed_race_sites(model), options);
}

void write_text_report(std::ostream& out, const ReportModel& model, ListedRaceSites listed,
                       const TextReportOptions& options) {
    const Style st{options.colour};
    const AnalysisCounts& c = model.counts;
    out << c.events << " events, " << c.processes << " processes: " << c.apparent
        << " apparent races";
    if (model.ordering == Ordering::Complete) out << " (" << c.actual << " actual)";
    out << "; " << c.feasible << " feasible, " << c.feasible_ec << " feasible-ec, " << c.unvalidated
        << " unvalidated; " << c.tangles << (c.tangles == 1 ? " tangle; " : " tangles; ")
        << c.partitions << (c.partitions == 1 ? " partition, " : " partitions, ")
        << c.first_partitions << " first";
    if (!model.misuses.empty())
        out << "; " << model.misuses.size() << (model.misuses.size() == 1 ? " misuse" : " misuses")
            << " of synchronization objects";
    out << "\n";
    if (model.merged_runs.empty())
        out << "(" << to_string(model.ordering) << " ordering, " << printable_text(model.trace_path)
            << (model.truncated ? ", TRUNCATED trace" : "") << ")\n";
    else
        for (const std::string& run : model.merged_runs)
            out << "== " << printable_text(run) << "\n";
    // Only the races the report lists: first partitions and validated races. The others are
    // counted (they may be artifacts of the listed ones, thesis ch. 8).
    const std::size_t later_unvalidated = listed.later_unvalidated;
    write_misuses(out, st, model, options);
    if (listed.sites.empty() && listed.unlisted_sites == 0 && later_unvalidated == 0) {
        out << "\nNo apparent data races.\n";
        return;
    }
    std::vector<RaceSite> sites = std::move(listed.sites);
    // (1) sites of first partitions, then (2) the other sites with a validated race; each by its
    // smallest partition, then race id (group_race_sites' order), which also chooses the shown
    // ones. Among the shown later sites, most validated races first: later partitions have no
    // order among themselves that says which to fix first (thesis ch. 8 orders only first
    // partitions before the others) and their numbering follows the schedule, so by partition a
    // site met in a few races of one run can hide the one nearly every race stems from.
    const auto later = std::stable_partition(
        sites.begin(), sites.end(), [](const RaceSite& s) { return s.in_first_partition; });
    const std::size_t in_first =
        static_cast<std::size_t>(std::count_if(
            sites.begin(), sites.end(), [](const RaceSite& s) { return s.in_first_partition; })) +
        listed.unlisted_in_first;
    const std::size_t total = sites.size() + listed.unlisted_sites;
    const std::size_t shown = std::min(sites.size(), options.max_sites);
    const auto shown_end = sites.begin() + static_cast<std::ptrdiff_t>(shown);
    if (later < shown_end)
        std::stable_sort(later, shown_end, [](const RaceSite& x, const RaceSite& y) {
            return x.feasible + x.feasible_ec > y.feasible + y.feasible_ec;
        });
    out << total << (total == 1 ? " race site" : " race sites") << " to look at: " << in_first
        << " in first partitions, " << total - in_first
        << " more with validated races in later partitions\n";
    for (std::size_t k = 0; k < shown; ++k) {
        if (k == in_first)
            out << "\n"
                << st.bold()
                << "Validated races ordered after others (real, but fix the ones above first):"
                << st.reset() << "\n";
        write_site(out, st, model, sites[k], k + 1, options);
    }
    if (total > shown)
        out << "\n… and " << total - shown
            << " more race sites (--max-sites N shows more; --format json lists every race)\n";
    if (later_unvalidated > 0)
        out << "\n"
            << later_unvalidated
            << (later_unvalidated == 1 ? " unvalidated race" : " unvalidated races") << " in "
            << listed.later_partitions
            << (listed.later_partitions == 1 ? " later partition" : " later partitions")
            << " may be artifacts of the races above (--format json lists them).\n";
}

} // namespace firstrace
