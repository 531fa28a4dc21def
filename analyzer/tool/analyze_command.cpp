// `firstrace analyze TRACE`: run the whole analysis and print (and optionally store) it.
#include <sys/resource.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include "command_line.hpp"
#include "commands.hpp"
#include "firstrace/analysis.hpp"
#include "firstrace/errors.hpp"
#include "firstrace/printable_text.hpp"
#include "firstrace/process_traces.hpp"
#include "firstrace/race_suppression.hpp"
#include "firstrace/report_model.hpp"
#include "firstrace/results_database.hpp"
#include "firstrace/trace_loader.hpp"
#include "firstrace/triage_report.hpp"
#include "input_in_progress.hpp"
#include "terminal_progress.hpp"

namespace po = boost::program_options;

namespace firstrace::cli {

namespace {

// Before `--db`, `analyze -o DB` stored the run; a path that names a database by its extension
// keeps doing so (with a warning) when no --format asks for a report file.
bool names_a_database(const std::string& path) {
    for (const char* ext : {".db", ".sqlite", ".sqlite3"}) {
        const std::string e = ext;
        if (path.size() > e.size() && path.compare(path.size() - e.size(), e.size(), e) == 0)
            return true;
    }
    return false;
}

} // namespace

int analyze_command(const Arguments& args) {
    po::options_description visible(
        "usage: firstrace analyze TRACE... [options]\n\n"
        "TRACE is a trace directory written by `firstrace record`, or a text trace in RAPID's\n"
        "STD format (T1|w(V3)|file.c:12). Prints the apparent races validated (feasible,\n"
        "feasible-ec, unvalidated) and ordered into partitions; first partitions come first.\n"
        "Several traces (runs of one program, `firstrace record --runs N`) are analyzed one by\n"
        "one, stored as one run each, and their race sites merged in the text report.\n"
        "The traces of other processes inside a trace directory (fork-PID: a fork child;\n"
        "exec-PID: an instrumented program it exec'd, spawned, ran with system or popen) are\n"
        "analyzed after it, each by itself: the text report gives each one's report in turn,\n"
        "JSON and --db one run each.\n"
        "Exit status: 0 when analyzed (races or not), 2 on errors (one line on stderr; of several\n"
        "traces, one that cannot be read is named and the others are analyzed).\n\n"
        "options");
    visible.add_options()("help,h", "show this help")(
        "format", po::value<std::string>()->default_value("text"),
        ("the report: " + spellings(kReportFormats, 2)).c_str())(
        "output,o", po::value<std::string>(),
        "write the report to this file instead of stdout (a path ending in .db, .sqlite or\n"
        ".sqlite3 without --format: the database, as --db; the old spelling)")(
        "db", po::value<std::string>(),
        "also store the run in this results database (created, or appended to as a new run);\n"
        "read it with `firstrace report DB` or the GUI")(
        "source-root", po::value<std::vector<std::string>>()->composing(),
        "--db: store the text of source files only from under this directory (repeatable);\n"
        "without it a recorded trace stores the files its debug information names, a text\n"
        "trace none (README \"Security and robustness\")")(
        "integrity-check", po::value<std::string>()->default_value("auto"),
        ("--db: check of an existing database before appending: " + spellings(kIntegrityChecks) +
         "\n(auto: full up to 256 MiB, quick above; quick does not verify index order)")
            .c_str())(
        "ordering", po::value<std::string>(),
        "approximate: only the synchronization order orients dependences;\n"
        "complete: also the observed clock order (default when the trace has clocks)")(
        "transitive-budget", po::value<std::uint64_t>(),
        "steps of the exact transitive-dependence search per origin event before it falls\n"
        "back to a sound superset (default 4000; larger: more precise, slower)")(
        "atomic-pair-budget", po::value<std::uint64_t>(),
        "atomic-only partners of events conflicting with two other processes kept for\n"
        "the dependences before the sweep keeps only each event's earliest and the origins\n"
        "near them take a sound superset (default 2^26; races are the same either way)")(
        "max-sites", po::value<std::size_t>()->default_value(20), "text: race sites shown in full")(
        "colour", po::value<std::string>()->default_value("auto"),
        ("text: " + spellings(kColours) + " (auto: when the report goes to a terminal)").c_str())(
        "ignore-tsan-settings",
        "report every race: do not apply the traced program's ThreadSanitizer settings\n"
        "(its suppressions, report_bugs=0), which apply by default")(
        "no-other-processes", "analyze only the traces given, not the traces of other\n"
                              "processes (fork-PID, exec-PID) inside them")(
        "quiet,q", "no progress, no summary on stderr")("verbose,v",
                                                        "print stage timings on stderr");
    const po::variables_map vm =
        parse_command_line(args, visible, "trace", Positionals::Many).options;
    if (vm.count("help")) {
        std::cout << visible << "\n";
        return 0;
    }
    if (!vm.count("trace")) throw UsageError("no TRACE given (see firstrace analyze --help)");
    const ReportFormat format =
        parse_spelling("format", vm["format"].as<std::string>(), kReportFormats, 2);

    AnalysisOptions options;
    if (vm.count("ordering"))
        options.ordering = parse_spelling("ordering", vm["ordering"].as<std::string>(), kOrderings);
    if (vm.count("transitive-budget"))
        options.transitive_budget = vm["transitive-budget"].as<std::uint64_t>();
    if (vm.count("atomic-pair-budget"))
        options.atomic_pair_budget = vm["atomic-pair-budget"].as<std::uint64_t>();
    std::optional<std::string> database, report_file;
    if (vm.count("db")) database = path_option(vm, "db");
    if (vm.count("output")) {
        const std::string output = path_option(vm, "output");
        if (!database && vm["format"].defaulted() && names_a_database(output)) {
            database = output;
            if (!vm.count("quiet"))
                std::cerr << "firstrace analyze: note: -o " << output
                          << " stores the database as before; write --db " << output
                          << " (-o is the report file)\n";
        } else {
            report_file = output;
        }
    }
    DatabaseWriteOptions store;
    if (vm.count("source-root")) {
        if (!database) throw UsageError("--source-root is for the database: give --db DB");
        store.source_directories = vm["source-root"].as<std::vector<std::string>>();
        for (const std::string& root : store.source_directories) {
            std::error_code ec;
            if (!std::filesystem::is_directory(root, ec))
                throw UsageError("--source-root " + root + ": not a directory");
        }
    }
    store.integrity_check = parse_spelling(
        "integrity-check", vm["integrity-check"].as<std::string>(), kIntegrityChecks);
    const bool quiet = vm.count("quiet") > 0;
    TerminalProgress progress(!quiet);
    options.progress = progress.callback();

    // The report file is opened only once the analysis succeeded: a failed run leaves an
    // existing report untouched.
    std::ofstream file;
    const auto open_report = [&]() -> std::ostream& {
        if (!report_file) return std::cout;
        file.open(*report_file);
        if (!file) throw InputError(*report_file, 0, "cannot write the report");
        return file;
    };
    const auto finish_report = [&](std::ostream& out) {
        out.flush();
        if (!out) throw InputError(report_file.value_or("stdout"), 0, "write failed");
        return 0;
    };
    const auto given = vm["trace"].as<std::vector<std::string>>();
    std::vector<ProcessTrace> traces;
    for (const std::string& path : given) {
        const std::size_t before = traces.size();
        if (vm.count("no-other-processes"))
            traces.push_back({path, ""});
        else
            for (ProcessTrace& t : process_traces(path))
                traces.push_back(std::move(t));
        if (const std::size_t others = traces.size() - before - 1; others > 0 && !quiet)
            std::cerr << "firstrace analyze: " << path << " holds the traces of " << others
                      << " other process" << (others == 1 ? "" : "es")
                      << " (fork-PID, exec-PID), analyzed after it (--no-other-processes: " << path
                      << " alone)\n";
    }
    // One recorded execution in text: each process's report in turn, straight from its analysis
    std::ostream* reports_in_turn = nullptr;
    std::vector<ReportModel> models;
    // Of several traces, one that cannot be read is named on stderr and the others analyzed;
    // the exit status says that one failed.
    std::size_t unreadable = 0;
    for (std::size_t k = 0; k < traces.size(); ++k) {
        const std::string& path = traces[k].path;
        const InputInProgress input(path);
        const auto reading = std::chrono::steady_clock::now();
        std::optional<Trace> loaded;
        try {
            loaded.emplace(load_trace(path, options.progress));
        } catch (const InputError& e) {
            if (traces.size() == 1) throw;
            progress.finish();
            std::cerr << "firstrace analyze: " << printable_text(e.what())
                      << " (not analyzed; the other traces are)\n";
            ++unreadable;
            continue;
        }
        const Trace& trace = *loaded;
        const std::chrono::duration<double> read_seconds =
            std::chrono::steady_clock::now() - reading;
        rusage read_usage{};
        getrusage(RUSAGE_SELF, &read_usage);
        if (options.ordering == Ordering::Complete && !trace.has_clock)
            throw UsageError(trace.path +
                             ": --ordering complete needs clock readings, which this trace lacks");
        AnalysisResult result = analyze(trace, options);
        progress.finish();
        // What the program's ThreadSanitizer settings hide is hidden from every output.
        if (trace.metadata && !vm.count("ignore-tsan-settings")) {
            const TsanConfiguration tsan = tsan_configuration(*trace.metadata);
            const std::uint64_t suppressed = suppress_races(trace, result, tsan);
            if (!quiet) {
                for (const std::string& warning : tsan.warnings)
                    std::cerr << "firstrace analyze: warning: " << printable_text(warning) << "\n";
                std::stringstream summary;
                write_suppression_summary(summary, tsan, suppressed);
                for (std::string line; std::getline(summary, line);)
                    std::cerr << "firstrace analyze: " << printable_text(line) << "\n";
            }
        }

        if (trace.truncated && !quiet)
            std::cerr << "firstrace analyze: warning: " << trace.path << " is truncated ("
                      << trace.truncation_reason << "); analyzed up to the last complete chunk\n";
        if (vm.count("verbose")) {
            std::cerr << "  reading the trace: " << read_seconds.count() << " s, peak RSS "
                      << read_usage.ru_maxrss / 1024 << " MiB\n";
            for (const auto& s : result.stages)
                std::cerr << "  " << s.name << ": " << s.seconds << " s, peak RSS "
                          << s.peak_rss_bytes / (1024 * 1024) << " MiB\n";
            std::cerr << "  transitive dependences: " << result.transitive_origins
                      << " origins searched, " << result.transitive_fallbacks
                      << " fell back to the conservative superset\n";
            if (result.approximated_events > 0)
                std::cerr << "  atomic-only pairs over the budget: " << result.approximated_events
                          << " events kept their earliest partners only (--atomic-pair-budget)\n";
        }
        if (database) {
            store.progress = progress.callback();
            const std::int64_t run =
                write_run(*database, trace, result, run_info_for(trace), store);
            progress.finish();
            if (vm.count("verbose"))
                std::cerr << "  stored as run " << run << " in " << *database << "\n";
        }
        // One trace in text: the race sites grouped straight from the analysis (dense traces
        // have hundreds of site pairs per race; a ReportModel of them would not fit).
        if (format == ReportFormat::Text && given.size() == 1) {
            if (reports_in_turn == nullptr) reports_in_turn = &open_report();
            std::ostream& out = *reports_in_turn;
            if (traces.size() > 1)
                out << (k > 0 ? "\n" : "") << "== process trace " << k + 1 << " of "
                    << traces.size() << ": " << printable_text(path)
                    << (traces[k].started_by.empty() ? ""
                                                     : " (started by " + traces[k].started_by + ")")
                    << "\n";
            const TextReportOptions options = text_report_options(vm, !report_file);
            write_text_report(out, make_report_header(trace, result),
                              listed_race_sites(trace, result, options.max_sites), options);
            continue;
        }
        models.push_back(make_report_model(trace, result, format == ReportFormat::Text));
    }
    const int status = unreadable == 0 ? 0 : 2;
    if (reports_in_turn != nullptr) return std::max(finish_report(*reports_in_turn), status);
    if (models.empty()) return status;
    std::ostream& out = open_report();
    if (format == ReportFormat::Json) {
        if (traces.size() == 1) {
            write_json_report(out, models.front());
        } else {
            out << "{\"runs\":[";
            for (std::size_t i = 0; i < models.size(); ++i) {
                if (i > 0) out << ",";
                write_json_report(out, models[i]);
            }
            out << "]}\n";
        }
    } else {
        write_text_report(out, models.size() == 1 ? models.front() : merge_report_models(models),
                          text_report_options(vm, !report_file));
    }
    return std::max(finish_report(out), status);
}

} // namespace firstrace::cli
