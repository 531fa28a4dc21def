// HTML output of `firstrace report --format html`: one self-contained file (inline CSS, no
// scripts, no external resources) with the first partitions and their race sites, each end
// shown with a source excerpt from the text stored in the database.
#include <algorithm>
#include <map>
#include <memory>
#include <ostream>

#include "firstrace/triage_report.hpp"
#include "firstrace/utf8.hpp"

namespace firstrace {
namespace {

constexpr std::uint32_t kContext = 3; // lines shown around a race line
constexpr std::size_t kSitesPerSection = 500;

// The one HTML escaping of this report (element text and attribute values alike): markup
// characters as entities, C0 controls other than tab and DEL shown as \xNN as in the text
// report, a byte that is not UTF-8 as U+FFFD (the page is declared UTF-8).
std::string html(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    append_utf8_escaped(out, text, [](std::string& o, char c) {
        switch (c) {
        case '&':
            o += "&amp;";
            break;
        case '<':
            o += "&lt;";
            break;
        case '>':
            o += "&gt;";
            break;
        case '"':
            o += "&quot;";
            break;
        case '\'':
            o += "&#39;";
            break;
        default:
            if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f)
                append_hex_escape(o, static_cast<unsigned char>(c));
            else
                o += c;
        }
    });
    return out;
}

const char* kStyle = R"css(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em auto;max-width:70em;padding:0 1em;color:#1d232a;background:#fff}
h1{font-size:1.6em;margin-bottom:.2em}h2{border-bottom:2px solid #d0d7de;padding-bottom:.2em;margin-top:2em}
h3{margin-top:1.6em}code,pre{font:12.5px/1.4 ui-monospace,"SFMono-Regular",Menlo,Consolas,monospace}
.meta{color:#57606a}.counts{display:flex;flex-wrap:wrap;gap:.5em;margin:.8em 0}
.counts span{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.2em .6em}
.site{border:1px solid #d0d7de;border-radius:8px;margin:1em 0;overflow:hidden}
.site header{background:#f6f8fa;padding:.5em .8em;border-bottom:1px solid #d0d7de}
.site header .where{font-weight:600}.badge{display:inline-block;border-radius:1em;padding:0 .6em;font-size:.85em;margin-left:.3em}
.feasible{background:#ffebe9;color:#a40e26}.feasible-ec{background:#fff1e5;color:#953800}.unvalidated{background:#eaeef2;color:#424a53}
.ends{display:grid;grid-template-columns:1fr 1fr}.end{padding:.4em .8em;min-width:0}.end+.end{border-left:1px solid #d0d7de}
.end h4{margin:.2em 0;font-size:.95em}pre{margin:.3em 0;overflow-x:auto;background:#fafbfc;border:1px solid #eaeef2;border-radius:4px}
pre span{display:block;padding:0 .5em;white-space:pre}pre span.hit{background:#fff8c5}pre i{color:#8c959f;font-style:normal;display:inline-block;min-width:3.5em}
.stack{margin:.2em 0 .4em;padding-left:2.2em;font-size:.9em}.facts{margin:.2em 0;font-size:.9em}
.details{padding:.3em .8em .6em;color:#57606a}.nosrc{color:#8c959f;font-style:italic}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #d0d7de;padding:.25em .5em;text-align:left;vertical-align:top}th{background:#f6f8fa}
)css";

// Lines of the stored source files of one run, read once per file.
class SourceCache {
  public:
    explicit SourceCache(const TriageRun& run) : run_(run) {}
    const std::vector<std::string>* lines(const std::string& file) {
        auto it = files_.find(file);
        if (it == files_.end()) {
            std::unique_ptr<std::vector<std::string>> lines;
            if (run_.source && !file.empty()) {
                if (auto text = run_.source(file)) {
                    lines = std::make_unique<std::vector<std::string>>();
                    std::size_t start = 0;
                    while (start <= text->size()) {
                        std::size_t end = text->find('\n', start);
                        if (end == std::string::npos) end = text->size();
                        std::string line = text->substr(start, end - start);
                        if (!line.empty() && line.back() == '\r') line.pop_back();
                        lines->push_back(std::move(line));
                        start = end + 1;
                    }
                }
            }
            it = files_.emplace(file, std::move(lines)).first;
        }
        return it->second.get();
    }

  private:
    const TriageRun& run_;
    std::map<std::string, std::unique_ptr<std::vector<std::string>>> files_;
};

void write_end(std::ostream& out, const SiteEnd& e, const ReportSite& access,
               const ReportEvent& event, SourceCache& sources) {
    const std::string& thread = event.thread;
    out << "<div class=\"end\"><h4>" << html(access.kind) << " by " << html(thread) << " at <code>"
        << html(location_key(e.file, e.line)) << "</code>";
    if (!e.function.empty()) out << " in <code>" << html(e.function) << "</code>";
    out << "</h4>";
    if (!access.stack.empty()) {
        // The call stack of the access, innermost frame first.
        out << "<ol class=\"stack\" start=\"0\">";
        for (const ReportFrame& f : access.stack)
            out << "<li><code>" << html(f.function.empty() ? "??" : f.function) << " "
                << html(location_key(f.file, f.line)) << "</code></li>";
        out << "</ol>";
    }
    if (const std::string locks = held_locks_text(event); !locks.empty())
        out << "<p class=\"facts\">holding <code>" << html(locks) << "</code></p>";
    if (const std::string created = creation_text(event); !created.empty())
        out << "<p class=\"facts\">" << html(created) << "</p>";
    const std::vector<std::string>* lines = sources.lines(e.file);
    if (lines && e.line > 0 && e.line <= lines->size()) {
        const std::uint32_t from = e.line > kContext ? e.line - kContext : 1;
        const std::uint32_t to =
            std::min<std::uint32_t>(static_cast<std::uint32_t>(lines->size()), e.line + kContext);
        out << "<pre>";
        for (std::uint32_t l = from; l <= to; ++l)
            out << "<span" << (l == e.line ? " class=\"hit\"" : "") << "><i>" << l << "</i>"
                << html((*lines)[l - 1]) << "</span>";
        out << "</pre>";
    } else {
        out << "<p class=\"nosrc\">"
            << (e.file.empty() ? "location unknown" : "source text not stored") << "</p>";
    }
    out << "</div>";
}

void write_badges(std::ostream& out, const RaceSite& s) {
    auto badge = [&](std::uint32_t n, const char* what) {
        if (n == 0) return;
        out << "<span class=\"badge " << what << "\">" << what;
        if (s.races.size() > 1) out << " ×" << n;
        out << "</span>";
    };
    badge(s.feasible, "feasible");
    badge(s.feasible_ec, "feasible-ec");
    badge(s.unvalidated, "unvalidated");
}

void write_site(std::ostream& out, const RaceSite& s, SourceCache& sources, const ReportModel& m) {
    out << "<section class=\"site\"><header><span class=\"where\">"
        << html(location_key(s.first.file, s.first.line)) << " ↔ "
        << html(location_key(s.second.file, s.second.line)) << "</span>";
    write_badges(out, s);
    out << "</header><div class=\"ends\">";
    write_end(out, s.first, s.access_first, s.event_first, sources);
    write_end(out, s.second, s.access_second, s.event_second, sources);
    out << "</div><div class=\"details\">" << s.races.size()
        << (s.races.size() == 1 ? " instance" : " instances") << " (first race #" << s.races.front()
        << "; the accesses shown are race #" << s.example_race << ")";
    if (m.ordering == Ordering::Complete)
        out << (s.actual > 0 ? ", observed overlapping" : ", not observed overlapping");
    if (!s.threads.empty()) out << "; threads " << html(join_limited(s.threads, 6));
    if (!s.variables.empty())
        out << "; on <code>" << html(join_limited(s.variables, 8)) << "</code>";
    out << "</div>";
    if (s.example_ordered_after && !s.in_first_partition) {
        // Why the race may be an artifact: both events of an earlier race precede it (Def 8.1).
        const ReportOrderedAfter& o = *s.example_ordered_after;
        out << "<div class=\"details\">Race #" << s.example_race << " is ordered after race #"
            << o.race << ":<ol class=\"stack\">";
        for (const ReportOrderingStep& step : o.chain) {
            out << "<li>" << (step.via == "start" ? std::string("from ") : "→ (" + step.via + ") ")
                << html(step.thread) << " #" << step.index << " "
                << html(step.kind == "computation" ? std::string("access") : step.kind);
            if (!step.object.empty()) out << " <code>" << html(step.object) << "</code>";
            if (step.at.known())
                out << " at <code>" << html(stack_headline_text(step.at)) << "</code>";
            out << "</li>";
        }
        out << "</ol></div>";
    }
    out << "</section>\n";
}

} // namespace

void write_html_report(std::ostream& out, const std::vector<TriageRun>& runs) {
    out << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
           "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
           "<title>firstrace report</title><style>"
        << kStyle << "</style></head><body>\n<h1>firstrace report</h1>\n";
    for (const TriageRun& run : runs) {
        const ReportModel& m = run.model;
        const AnalysisCounts& c = m.counts;
        out << "<h2>" << (run.id ? "Run " + std::to_string(run.id) + ": " : std::string())
            << html(run.title) << "</h2>\n";
        out << "<p class=\"meta\">trace <code>" << html(m.trace_path) << "</code>"
            << (m.truncated ? " <strong>(truncated)</strong>" : "") << ", " << to_string(m.ordering)
            << " ordering";
        if (!run.analyzed_at.empty()) out << ", analyzed " << html(run.analyzed_at);
        out << "</p>\n<div class=\"counts\"><span>" << c.events << " events</span><span>"
            << c.processes << " processes</span><span>" << c.apparent << " apparent races</span>";
        if (m.ordering == Ordering::Complete) out << "<span>" << c.actual << " actual</span>";
        out << "<span>" << c.feasible << " feasible</span><span>" << c.feasible_ec
            << " feasible-ec</span><span>" << c.unvalidated << " unvalidated</span><span>"
            << c.tangles << " tangles</span><span>" << c.partitions << " partitions, "
            << c.first_partitions << " first</span>";
        if (m.races.size() != c.apparent)
            out << "<span>" << m.races.size() << " shown after filters</span>";
        out << "</div>\n";

        const std::vector<RaceSite> sites = group_race_sites(m);
        if (sites.empty()) {
            out << "<p>No races to report.</p>\n";
            continue;
        }
        SourceCache sources(run);
        const auto by_partition = sites_by_first_partition(m, sites);
        for (const ReportPartition& p : m.partitions) {
            auto it = by_partition.find(p.id);
            if (!p.first || it == by_partition.end()) continue;
            out << "<h3>First partition " << p.id << " <span class=\"meta\">(" << p.races.size()
                << (p.races.size() == 1 ? " race, " : " races, ") << it->second.size()
                << (it->second.size() == 1 ? " race site" : " race sites") << ")</span></h3>\n";
            std::size_t n = 0;
            for (const RaceSite* s : it->second) {
                if (n++ == kSitesPerSection) {
                    out << "<p>" << it->second.size() - kSitesPerSection
                        << " more race sites in this partition (<code>--format json</code> lists "
                           "every race).</p>\n";
                    break;
                }
                write_site(out, *s, sources, m);
            }
        }
        // Validated races are real wherever the ordering puts them: shown in full.
        std::vector<const RaceSite*> validated, later;
        for (const RaceSite& s : sites)
            if (!s.in_first_partition)
                (s.feasible + s.feasible_ec > 0 ? validated : later).push_back(&s);
        if (!validated.empty()) {
            out << "<h3>Validated races in later partitions</h3>\n<p>These race sites have "
                   "feasible races (real) ordered after a first partition: fix the first ones "
                   "first.</p>\n";
            std::size_t n = 0;
            for (const RaceSite* s : validated)
                if (n++ < kSitesPerSection) write_site(out, *s, sources, m);
        }
        if (!later.empty()) {
            out << "<h3>Unvalidated, later partitions</h3>\n<p>These race sites occur only in "
                   "partitions ordered after a first one, with no validated race; they may be "
                   "artifacts of the first races.</p>\n<table><tr><th>Race "
                   "site</th><th>Status</th>"
                   "<th>Instances</th><th>Variables</th></tr>\n";
            std::size_t n = 0;
            for (const RaceSite* s : later) {
                if (n++ == kSitesPerSection) break;
                out << "<tr><td><code>" << html(s->key) << "</code></td><td>";
                write_badges(out, *s);
                out << "</td><td>" << s->races.size() << "</td><td><code>"
                    << html(join_limited(s->variables, 6)) << "</code></td></tr>\n";
            }
            out << "</table>\n";
            if (later.size() > kSitesPerSection)
                out << "<p>" << later.size() - kSitesPerSection
                    << " more race sites (<code>--format json</code>).</p>\n";
        }
    }
    out << "</body></html>\n";
}

} // namespace firstrace
