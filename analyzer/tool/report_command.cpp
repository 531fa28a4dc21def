// `firstrace report DB`: print runs of a results database for people and scripts, with filters,
// suppressions, a baseline and a CI exit-code policy.
#include <boost/program_options.hpp>
#include <fstream>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>

#include "command_line.hpp"
#include "commands.hpp"
#include "firstrace/errors.hpp"
#include "firstrace/report_model.hpp"
#include "firstrace/results_database.hpp"
#include "firstrace/triage_report.hpp"
#include "input_in_progress.hpp"

namespace po = boost::program_options;

namespace firstrace::cli {
namespace {

std::vector<std::string> split_list(const std::vector<std::string>& values) {
    std::vector<std::string> out;
    for (const std::string& v : values) {
        std::stringstream in(v);
        std::string item;
        while (std::getline(in, item, ','))
            if (!item.empty()) out.push_back(item);
    }
    return out;
}

void list_runs(std::ostream& out, const ResultsDatabase& db) {
    for (const RunSummary& r : db.runs()) {
        out << r.id << "\t" << r.analyzed_at << "\t" << r.program.value_or(r.trace_path) << "\t"
            << to_string(r.ordering) << "\t" << r.counts.apparent << " races, "
            << r.counts.feasible + r.counts.feasible_ec << " feasible, "
            << r.counts.first_partitions << " first partitions"
            << (r.truncated ? "\ttruncated" : "") << "\n";
    }
}

} // namespace

int report_command(const Arguments& args) {
    po::options_description visible(
        "usage: firstrace report DB [options]\n\n"
        "Prints a run of a results database written by `firstrace analyze TRACE -o DB` (the "
        "latest\n"
        "run unless --run or --all-runs). Filters select races; --fail-on sets the exit code for "
        "CI:\n"
        "1 when races matching the policy remain after the filters, 0 otherwise, 2 on errors.\n\n"
        "options");
    visible.add_options()("help,h", "show this help")(
        "format", po::value<std::string>()->default_value("text"),
        spellings(kReportFormats).c_str())("output,o", po::value<std::string>(),
                                           "write the report to this file instead of stdout")(
        "db", po::value<std::string>(), "the database (instead of the DB argument)")(
        "run", po::value<std::int64_t>(), "the run to report (see --list-runs)")(
        "all-runs", "report every run of the database (text: their race sites merged)")(
        "list-runs", "list the runs of the database and exit")("first-only",
                                                               "only races of first partitions")(
        "status", po::value<std::vector<std::string>>()->composing(),
        "only races with this status: feasible, feasible-ec, unvalidated (repeat or "
        "comma-separate)")("file", po::value<std::vector<std::string>>()->composing(),
                           "only races with an access in a file matching this glob (full path or "
                           "trailing part; repeatable)")(
        "suppressions", po::value<std::vector<std::string>>()->composing(),
        "ThreadSanitizer-style suppressions file: lines race:PATTERN (function or file), # "
        "comments")("baseline", po::value<std::string>(),
                    "results database of a baseline (e.g. the main branch): only races with a race "
                    "site it lacks")("fail-on", po::value<std::string>()->default_value("none"),
                                     "exit code 1 when a race remains that is: first (in a first "
                                     "partition), feasible (feasible or\n"
                                     "feasible-ec), any; none: always 0")(
        "source-root", po::value<std::string>(),
        "SARIF: write paths under this directory relative to it (%SRCROOT%)")(
        "max-sites", po::value<std::size_t>()->default_value(20),
        "text: race sites shown in full")("colour", po::value<std::string>()->default_value("auto"),
                                          "text: auto (when stdout is a terminal), always, never")(
        "quiet,q", "nothing on stderr")("verbose,v", "filter and suppression statistics on stderr");
    const po::variables_map vm =
        parse_command_line(args, visible, "database", Positionals::One).options;
    if (vm.count("help")) {
        std::cout << visible << "\n";
        return 0;
    }
    if (vm.count("database") && vm.count("db"))
        throw UsageError("the database is given twice (DB and --db)");
    if (!vm.count("database") && !vm.count("db"))
        throw UsageError("no DB given (see firstrace report --help)");
    const std::string database = path_option(vm, vm.count("db") ? "db" : "database");
    const ReportFormat format =
        parse_spelling("format", vm["format"].as<std::string>(), kReportFormats);
    if (vm.count("output")) path_option(vm, "output");
    if (vm.count("run") && vm.count("all-runs"))
        throw UsageError("--run and --all-runs exclude each other");
    const bool quiet = vm.count("quiet") > 0;
    const bool verbose = vm.count("verbose") > 0 && !quiet;
    const FailOn fail_on = parse_spelling("fail-on", vm["fail-on"].as<std::string>(), kFailOn);

    RaceFilter filter;
    filter.first_only = vm.count("first-only") > 0;
    if (vm.count("status"))
        for (const std::string& s : split_list(vm["status"].as<std::vector<std::string>>()))
            filter.statuses.push_back(parse_spelling("status", s, kStatuses));
    if (vm.count("file")) filter.file_patterns = vm["file"].as<std::vector<std::string>>();
    std::vector<Suppressions> suppression_files;
    if (vm.count("suppressions")) {
        // Every file is parsed (and its errors reported) before the database is read.
        for (const std::string& path : vm["suppressions"].as<std::vector<std::string>>()) {
            const InputInProgress input(path);
            suppression_files.push_back(Suppressions::load(path));
        }
    }
    std::set<std::string> baseline;
    if (vm.count("baseline")) {
        const InputInProgress input(vm["baseline"].as<std::string>());
        const ResultsDatabase old(vm["baseline"].as<std::string>());
        for (auto& key : old.site_keys())
            baseline.insert(std::move(key));
        filter.baseline = &baseline;
    }

    const InputInProgress input(database);
    const ResultsDatabase db(database);
    std::unique_ptr<std::ofstream> file;
    if (vm.count("output")) {
        file = std::make_unique<std::ofstream>(vm["output"].as<std::string>());
        if (!*file) throw InputError(vm["output"].as<std::string>(), 0, "cannot write the report");
    }
    std::ostream& out = file ? *file : std::cout;
    if (vm.count("list-runs")) {
        list_runs(out, db);
        return 0;
    }

    std::vector<std::int64_t> run_ids;
    if (vm.count("all-runs")) {
        for (const RunSummary& r : db.runs())
            run_ids.push_back(r.id);
        if (run_ids.empty()) throw InputError(db.path(), 0, "the database holds no run");
    } else if (vm.count("run")) {
        run_ids.push_back(db.run(vm["run"].as<std::int64_t>()).id);
    } else {
        run_ids.push_back(db.latest_run());
    }

    bool failed = false;
    std::vector<TriageRun> runs;
    for (const std::int64_t id : run_ids) {
        const RunSummary summary = db.run(id);
        ReportModel model = db.read_report(id);
        const std::size_t total = model.races.size();
        FilterStats stats;
        const bool unfiltered = filter_is_empty(filter) && suppression_files.empty();
        ReportModel shown;
        if (unfiltered) {
            shown = std::move(model);
            stats.kept = total;
        } else {
            // Suppression files apply one after the other; each counts its own hits.
            std::size_t suppressed = 0;
            const ReportModel* input = &model;
            for (const Suppressions& s : suppression_files) {
                RaceFilter only;
                only.suppressions = &s;
                FilterStats st;
                shown = filter_report(*input, only, &st);
                input = &shown;
                suppressed += st.suppressed;
            }
            shown = filter_report(*input, filter, &stats);
            stats.suppressed += suppressed;
        }
        failed = failed || fails(shown, fail_on);
        if (verbose || (!quiet && shown.races.size() != total))
            std::cerr << "firstrace report: run " << id << ": " << shown.races.size() << " of "
                      << total << " races shown (" << stats.filtered << " filtered out, "
                      << stats.suppressed << " suppressed, " << stats.baselined
                      << " in the baseline)\n";
        TriageRun run;
        run.id = id;
        run.title = summary.program.value_or(summary.trace_path);
        run.analyzed_at = summary.analyzed_at;
        run.source = [&db, id](const std::string& f) { return db.source_text(id, f); };
        run.model = std::move(shown);
        runs.push_back(std::move(run));
    }
    if (verbose)
        for (const Suppressions& s : suppression_files)
            for (const auto& rule : s.rules())
                std::cerr << "  " << s.file() << ":" << rule.line << ": " << rule.type << ":"
                          << rule.pattern << " — " << rule.hits
                          << (rule.hits == 1 ? " race" : " races") << " suppressed\n";

    if (format == ReportFormat::Json) {
        if (runs.size() == 1) {
            write_json_report(out, runs.front().model);
        } else {
            out << "{\"runs\":[";
            for (std::size_t i = 0; i < runs.size(); ++i) {
                if (i > 0) out << ",";
                out << "{\"run\":" << runs[i].id << ",\"report\":";
                write_json_report(out, runs[i].model);
                out << "}";
            }
            out << "]}\n";
        }
    } else if (format == ReportFormat::Text) {
        // Several runs: their race sites merged (a site found in any run), each listed once.
        std::vector<ReportModel> models;
        std::vector<std::string> titles;
        for (TriageRun& run : runs) {
            models.push_back(std::move(run.model));
            titles.push_back("Run " + std::to_string(run.id) + ": " + run.title);
        }
        write_text_report(out,
                          models.size() == 1 ? models.front() : merge_report_models(models, titles),
                          text_report_options(vm, !vm.count("output")));
    } else if (format == ReportFormat::Sarif) {
        SarifOptions options;
        if (vm.count("source-root")) options.source_root = vm["source-root"].as<std::string>();
        write_sarif_report(out, runs, options);
    } else if (format == ReportFormat::Markdown) {
        write_markdown_report(out, runs);
    } else {
        write_html_report(out, runs);
    }
    out.flush();
    if (!out)
        throw InputError(vm.count("output") ? vm["output"].as<std::string>() : "stdout", 0,
                         "write failed");
    if (failed && !quiet)
        std::cerr << "firstrace report: races matching --fail-on "
                  << vm["fail-on"].as<std::string>() << " remain\n";
    return failed ? 1 : 0;
}

} // namespace firstrace::cli
