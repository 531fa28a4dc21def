// Markdown output of `firstrace report --format markdown` (pull-request comments, CI summaries).
#include <ostream>

#include "firstrace/triage_report.hpp"
#include "firstrace/utf8.hpp"

namespace firstrace {
namespace {

// The one Markdown escaping (GitHub flavour) of this report, for every name, path and text
// from the program, the trace or the database: each character Markdown or its inline HTML
// would interpret is backslash-escaped (so a backtick cannot open a code span, `<` cannot
// start a tag, `[` cannot start a link or image, `$` cannot start GitHub's math), line breaks
// become spaces (a name cannot end a table row or start a heading), other C0 controls and DEL are
// shown as \xNN as in the text report, a byte that is not UTF-8 as U+FFFD.
std::string md(const std::string& text) {
    std::string out;
    append_utf8_escaped(out, text, [](std::string& o, char c) {
        switch (c) {
        case '\\':
        case '`':
        case '*':
        case '_':
        case '[':
        case ']':
        case '<':
        case '>':
        case '|':
        case '#':
        case '~':
        case '&':
        case '$':
            o += '\\';
            o += c;
            break;
        case '\n':
        case '\r':
            o += ' ';
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
                o += '\\'; // a Markdown backslash before the text report's \xNN
                append_hex_escape(o, static_cast<unsigned char>(c));
            } else {
                o += c;
            }
        }
    });
    return out;
}

std::string end_text(const SiteEnd& e) {
    std::string s = md(location_key(e.file, e.line));
    if (!e.function.empty()) s += " (" + md(e.function) + ")";
    return s;
}

std::string statuses(const RaceSite& s) {
    std::string out;
    auto part = [&](std::uint32_t n, const char* what) {
        if (n == 0) return;
        out += (out.empty() ? "" : ", ") + std::string(what) +
               (s.races.size() > 1 ? " ×" + std::to_string(n) : "");
    };
    part(s.feasible, "feasible");
    part(s.feasible_ec, "feasible-ec");
    part(s.unvalidated, "unvalidated");
    return out;
}

// "write by thread 1: f a.c:3 ← main a.c:9" (innermost frame first), or the headline alone;
// then the locks the thread held.
std::string access_text(const ReportSite& a, const ReportEvent& event) {
    std::string out = md(a.kind) + " by " + md(event.thread) + ": ";
    if (a.stack.empty()) {
        out += md(a.function) + " " + md(location_key(a.file, a.line));
    } else {
        for (std::size_t k = 0; k < a.stack.size() && k < 8; ++k)
            out += (k ? " ← " : "") + md(a.stack[k].function) + " " +
                   md(location_key(a.stack[k].file, a.stack[k].line));
        if (a.stack.size() > 8) out += " ← …";
    }
    if (const std::string locks = held_locks_text(event); !locks.empty())
        out += "; holding " + md(locks);
    return out;
}

// The two accesses (with call stacks) of each listed site's example race.
void accesses(std::ostream& out, const std::vector<const RaceSite*>& sites, std::size_t limit) {
    out << "\n";
    std::size_t n = 0;
    for (const RaceSite* s : sites) {
        if (n++ == limit) break;
        out << "- " << end_text(s->first) << " ↔ " << end_text(s->second) << " (race #"
            << s->example_race << "):\n  " << access_text(s->access_first, s->event_first) << "\n  "
            << access_text(s->access_second, s->event_second) << "\n";
        for (const ReportEvent* e : {&s->event_first, &s->event_second}) {
            if (e == &s->event_second && e->thread == s->event_first.thread) break;
            if (const std::string created = creation_text(*e); !created.empty())
                out << "  " << md(created) << "\n";
        }
        if (s->example_ordered_after && !s->in_first_partition)
            out << "  ordered after " << md(ordering_text(*s->example_ordered_after, 6)) << "\n";
    }
}

void table(std::ostream& out, const std::vector<const RaceSite*>& sites, std::size_t limit) {
    out << "| Race site | Status | Instances | Threads | Variables |\n|---|---|---|---|---|\n";
    std::size_t n = 0;
    for (const RaceSite* s : sites) {
        if (n++ == limit) break;
        out << "| " << end_text(s->first) << " ↔ " << end_text(s->second) << " | " << statuses(*s)
            << " | " << s->races.size() << " | " << md(join_limited(s->threads, 4)) << " | "
            << md(join_limited(s->variables, 4)) << " |\n";
    }
    if (sites.size() > limit)
        out << "\n"
            << sites.size() - limit << " more race sites (`--format json` lists every race).\n";
}

} // namespace

void write_markdown_report(std::ostream& out, const std::vector<TriageRun>& runs) {
    out << "# firstrace report\n";
    for (const TriageRun& run : runs) {
        const ReportModel& m = run.model;
        const AnalysisCounts& c = m.counts;
        out << "\n## " << (run.id ? "Run " + std::to_string(run.id) + ": " : std::string())
            << md(run.title) << "\n\n";
        out << "- trace: " << md(m.trace_path) << (m.truncated ? " (**truncated**)" : "") << "\n";
        if (!run.analyzed_at.empty()) out << "- analyzed: " << md(run.analyzed_at) << "\n";
        out << "- " << to_string(m.ordering) << " ordering; " << c.events << " events, "
            << c.processes << " processes\n";
        out << "- " << c.apparent << " apparent races";
        if (m.ordering == Ordering::Complete) out << " (" << c.actual << " actual)";
        out << ": " << c.feasible << " feasible, " << c.feasible_ec << " feasible-ec, "
            << c.unvalidated << " unvalidated; " << c.tangles << " tangles; " << c.partitions
            << " partitions, " << c.first_partitions << " first\n";
        if (m.races.size() != c.apparent)
            out << "- shown after filters: " << m.races.size() << " races\n";

        const std::vector<RaceSite> sites = group_race_sites(m);
        if (sites.empty()) {
            out << "\nNo races to report.\n";
            continue;
        }
        const auto by_partition = sites_by_first_partition(m, sites);
        for (const ReportPartition& p : m.partitions) {
            auto it = by_partition.find(p.id);
            if (!p.first || it == by_partition.end()) continue;
            out << "\n### First partition " << p.id << " (" << p.races.size()
                << (p.races.size() == 1 ? " race" : " races") << ")\n\n";
            table(out, it->second, 200);
            accesses(out, it->second, 50);
        }
        // Validated races are real wherever the ordering puts them; the others may be
        // artifacts of earlier races (the text report's order).
        std::vector<const RaceSite*> validated, later;
        for (const RaceSite& s : sites)
            if (!s.in_first_partition)
                (s.feasible + s.feasible_ec > 0 ? validated : later).push_back(&s);
        if (!validated.empty()) {
            out << "\n### Validated races in later partitions\n\nThese race sites have feasible "
                   "races (real) ordered after a first partition: fix the first ones first.\n\n";
            table(out, validated, 200);
            accesses(out, validated, 50);
        }
        if (!later.empty()) {
            out << "\n### Unvalidated, later partitions\n\nThese race sites occur only in "
                   "partitions ordered after a first one, with no validated race: they "
                   "may be artifacts of the first races.\n\n";
            table(out, later, 200);
        }
    }
}

} // namespace firstrace
