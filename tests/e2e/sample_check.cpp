// Compares the races `firstrace analyze --format json` found in a sample with the markers in
// the sample's source (samples/README.md):
//   // RACE      the line takes part in a race of a first partition or a validated race
//   // RACE?     the line may take part in races (first partition or not)
//   // ARTIFACT  the line takes part in races, none of them in a first partition or validated
//   // FIRST-VARIABLE: name   a first-partition race is reported on that variable by name
//   // RACE-IF-OPTIMIZED: why  the line may take part in races at -O1/-O2 only: the compiler
//                            moved another line's racy access here (at -O0 it must not race)
//   // MISUSE    the line misuses a synchronization object (init, destroy or free of a barrier
//                threads are blocked on): the analysis lists a misuse there, and lists none on
//                an unmarked line (misuses are never races)
//   // MISUSE?   the line may show a misuse, depending on the run
//   // PROCESS-TRACES: n    the recording holds the traces of n processes (the program, its
//                          fork children, the instrumented programs it exec'd): the analysis
//                          is then `{"runs": [...]}`, one run per process, checked together
// A sample without markers must show no apparent race.
//
// Optimized builds (`--opt -O1`, `-O2`; tests/e2e `e2e.opt.*`) are checked like -O0, with one
// rule for what optimization does to line attribution: a site with line 0 (DWARF's "no source
// line": clang gives it to an access merged from several lines or inlined calls, or hoisted out
// of a loop) is matched against no marker, and every race must have a site that carries a line.
// Accesses a compiler may legally merge or drop are kept in the samples themselves (volatile,
// noinline, with a comment why), never by a looser check (samples/README.md "Optimized builds").
//
//   firstrace_sample_check SAMPLE.c ANALYSIS.json [--opt -O0|-O1|-O2] [--label TEXT]
//
// Prints the lines seen; exit 0 when the markers match, 1 with one line per mismatch, 2 on bad
// input. (It replaced a CMake script whose JSON parsing was quadratic in the races.)
#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <string>
#include <vector>

namespace {

using boost::property_tree::ptree;

struct Markers {
    std::set<int> race, maybe, artifact, if_optimized, misuse, maybe_misuse;
    std::vector<std::string> first_variables;
    int min_threads = 0; // `// MIN-THREADS: n` (OpenMP): smaller teams need not show the races
    int process_traces = 1;
    bool racy() const { return !race.empty() || !maybe.empty() || !artifact.empty(); }
};

Markers read_markers(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(path + ": cannot read");
    Markers m;
    std::string text;
    for (int n = 1; std::getline(in, text); ++n) {
        if (text.find("// RACE?") != std::string::npos)
            m.maybe.insert(n);
        else if (text.find("// RACE-IF-OPTIMIZED") != std::string::npos)
            m.if_optimized.insert(n);
        else if (const auto at = text.find("// RACE");
                 at != std::string::npos && (at + 7 == text.size() || text[at + 7] == ' '))
            m.race.insert(n);
        else if (text.find("// ARTIFACT") != std::string::npos)
            m.artifact.insert(n);
        if (text.find("// MISUSE?") != std::string::npos)
            m.maybe_misuse.insert(n);
        else if (text.find("// MISUSE") != std::string::npos)
            m.misuse.insert(n);
        if (const auto at = text.find("// MIN-THREADS: "); at != std::string::npos)
            m.min_threads = std::atoi(text.c_str() + at + 16);
        if (const auto at = text.find("// PROCESS-TRACES: "); at != std::string::npos)
            m.process_traces = std::atoi(text.c_str() + at + 19);
        const std::string key = "// FIRST-VARIABLE: ";
        if (const auto at = text.find(key); at != std::string::npos) {
            std::string name = text.substr(at + key.size());
            name = name.substr(0, name.find_first_of(" \t\r"));
            m.first_variables.push_back(name);
        }
    }
    return m;
}

std::string join(const std::set<int>& lines) {
    std::string out;
    for (int l : lines)
        out += (out.empty() ? "" : " ") + std::to_string(l);
    return out;
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    std::string label, opt = "-O0";
    std::vector<std::string> positional;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--opt" && i + 1 < args.size())
            opt = args[++i];
        else if (args[i] == "--label" && i + 1 < args.size())
            label = args[++i];
        else
            positional.push_back(args[i]);
    }
    if (positional.size() != 2) {
        std::cerr << "usage: firstrace_sample_check SAMPLE ANALYSIS.json [--opt -O0|-O1|-O2] "
                     "[--label TEXT]\n";
        return 2;
    }
    const std::string sample = positional[0];
    const std::string sample_file = std::filesystem::path(sample).filename().string();
    Markers markers;
    ptree json;
    try {
        markers = read_markers(sample);
        boost::property_tree::read_json(positional[1], json);
    } catch (const std::exception& e) {
        std::cerr << "firstrace_sample_check: " << e.what() << "\n";
        return 2;
    }
    if (label.empty()) label = sample_file;
    const bool optimized = opt != "-O0";
    if (optimized) markers.maybe.insert(markers.if_optimized.begin(), markers.if_optimized.end());
    // In a team smaller than MIN-THREADS (a team of one runs a loop as one implicit task) the
    // marked races need not show; no unmarked line may race at any team size.
    bool below_min_threads = false;
    if (const char* team = std::getenv("OMP_NUM_THREADS");
        team && markers.min_threads > 0 && std::atoi(team) < markers.min_threads) {
        below_min_threads = true;
        markers.maybe.insert(markers.race.begin(), markers.race.end());
        markers.race.clear();
    }

    std::vector<std::string> failures;
    // One analysis, or one run per process trace of the recording.
    std::vector<const ptree*> runs;
    if (const auto list = json.get_child_optional("runs"))
        for (const auto& [_, run] : *list)
            runs.push_back(&run);
    else
        runs.push_back(&json);
    if (static_cast<int>(runs.size()) != markers.process_traces)
        failures.push_back("the recording has " + std::to_string(runs.size()) +
                           " process traces, not " + std::to_string(markers.process_traces));

    std::set<int> first_seen, shown_seen, all_seen, misuse_seen;
    std::set<std::string> first_variables;
    std::size_t races = 0;
    for (const ptree* run : runs) {
        if (run->get<bool>("truncated", false))
            failures.push_back("the trace " + run->get<std::string>("trace", "") +
                               " is unexpectedly truncated");
        std::set<std::string> first_partitions;
        if (const auto parts = run->get_child_optional("partitions"))
            for (const auto& [_, p] : *parts)
                if (p.get<bool>("first", false)) first_partitions.insert(p.get<std::string>("id"));
        if (const auto misuses = run->get_child_optional("misuses"))
            for (const auto& [_, m] : *misuses) {
                const std::string file =
                    std::filesystem::path(m.get<std::string>("at.file", "")).filename().string();
                const int line = m.get<int>("at.line", 0);
                if (file == sample_file && !(optimized && line == 0)) misuse_seen.insert(line);
            }
        const auto list = run->get_child_optional("races");
        if (!list) continue;
        for (const auto& [_, race] : *list) {
            ++races;
            // A race proven real (feasible, feasible-ec) is shown wherever it is ordered, like a
            // race of a first partition (DESIGN "Outputs").
            const std::string status = race.get<std::string>("status", "");
            const bool first = first_partitions.count(race.get<std::string>("partition", "")) != 0;
            const bool shown = first || status == "feasible" || status == "feasible-ec";
            bool has_line = false;
            for (const char* side : {"a", "b"}) {
                const auto sites = race.get_child_optional(std::string("sites.") + side);
                if (!sites) continue;
                for (const auto& [__, site] : *sites) {
                    const std::string file =
                        std::filesystem::path(site.get<std::string>("file", ""))
                            .filename()
                            .string();
                    const int line = site.get<int>("line", 0);
                    if (file != sample_file) {
                        failures.push_back("a race has a site outside the sample: " + file + ":" +
                                           std::to_string(line));
                        continue;
                    }
                    if (optimized && line == 0) continue; // no source line: nothing to match
                    has_line = true;
                    all_seen.insert(line);
                    if (first) first_seen.insert(line);
                    if (shown) shown_seen.insert(line);
                }
            }
            if (!has_line)
                failures.push_back("a race (" + race.get<std::string>("id", "?") +
                                   ") has no site with a source line");
            if (first)
                if (const auto vars = race.get_child_optional("variables"))
                    for (const auto& [__, v] : *vars)
                        first_variables.insert(v.get_value<std::string>());
        }
    }
    std::cout << label << ": " << races
              << " apparent races; first-partition lines: " << join(first_seen)
              << "; all: " << join(all_seen) << "; misuses: " << join(misuse_seen) << "\n";

    if (!markers.racy()) {
        if (races > 0)
            failures.push_back("race-free sample shows " + std::to_string(races) +
                               " apparent races on lines " + join(all_seen));
    } else {
        if (races == 0 && !below_min_threads)
            failures.push_back("racy sample shows no apparent race");
        for (int l : markers.race)
            if (!shown_seen.count(l))
                failures.push_back("line " + std::to_string(l) +
                                   " (// RACE) is in no race of a first partition nor validated");
        for (int l : first_seen)
            if (!markers.race.count(l) && !markers.maybe.count(l))
                failures.push_back("line " + std::to_string(l) +
                                   " is in a first partition but not marked // RACE");
        for (int l : all_seen)
            if (!markers.race.count(l) && !markers.maybe.count(l) && !markers.artifact.count(l))
                failures.push_back("line " + std::to_string(l) +
                                   " takes part in a race but is not marked");
        for (int l : markers.artifact) {
            if (!all_seen.count(l))
                failures.push_back("line " + std::to_string(l) + " (// ARTIFACT) is in no race");
            else if (first_seen.count(l))
                failures.push_back("line " + std::to_string(l) +
                                   " (// ARTIFACT) is in a first partition");
        }
        for (const auto& v : markers.first_variables)
            if (!first_variables.count(v))
                failures.push_back("no first-partition race on variable " + v);
    }
    for (int l : markers.misuse)
        if (!misuse_seen.count(l))
            failures.push_back("line " + std::to_string(l) + " (// MISUSE) shows no misuse");
    for (int l : misuse_seen)
        if (!markers.misuse.count(l) && !markers.maybe_misuse.count(l))
            failures.push_back("line " + std::to_string(l) + " shows a misuse but is not marked");
    for (const auto& f : failures)
        std::cout << label << ": " << f << "\n";
    return failures.empty() ? 0 : 1;
}
