// `firstrace analyze TRACE`: run the whole analysis and print (and optionally store) it.
#include <boost/program_options.hpp>
#include <iostream>

#include "command_line.hpp"
#include "commands.hpp"
#include "firstrace/analysis.hpp"
#include "firstrace/errors.hpp"
#include "firstrace/report_model.hpp"
#include "firstrace/results_database.hpp"
#include "firstrace/trace_loader.hpp"
#include "firstrace/triage_report.hpp"
#include "terminal_progress.hpp"

namespace po = boost::program_options;

namespace firstrace::cli {

int analyze_command(const Arguments& args) {
    po::options_description visible(
        "usage: firstrace analyze TRACE... [options]\n\n"
        "TRACE is a trace directory written by `firstrace record`, or a text trace in RAPID's\n"
        "STD format (T1|w(V3)|file.c:12). Prints the apparent races validated (feasible,\n"
        "feasible-ec, unvalidated) and ordered into partitions; first partitions come first.\n"
        "Several traces (runs of one program, `firstrace record --runs N`) are analyzed one by\n"
        "one, stored as one run each, and their race sites merged in the text report.\n\n"
        "options");
    visible.add_options()("help,h", "show this help")(
        "ordering", po::value<std::string>(),
        "approximate: only the synchronization order orients dependences;\n"
        "complete: also the observed clock order (default when the trace has clocks)")(
        "format", po::value<std::string>()->default_value("text"), "text or json (stdout)")(
        "output,o", po::value<std::string>(),
        "also store the run in this results database (created, or appended to as a new run)")(
        "transitive-budget", po::value<std::uint64_t>(),
        "steps of the exact transitive-dependence search per origin event before it falls\n"
        "back to a sound superset (default 4000; larger: more precise, slower)")(
        "max-sites", po::value<std::size_t>()->default_value(20),
        "text: race sites shown in full")("colour", po::value<std::string>()->default_value("auto"),
                                          "text: auto (when stdout is a terminal), always, never")(
        "quiet,q", "no progress, no summary on stderr")("verbose,v",
                                                        "print stage timings on stderr");
    const po::variables_map vm = parse_command_line(args, visible, "trace", true);
    if (vm.count("help")) {
        std::cout << visible << "\n";
        return 0;
    }
    if (!vm.count("trace")) throw UsageError("no TRACE given (see firstrace analyze --help)");
    const std::string format = vm["format"].as<std::string>();
    if (format != "text" && format != "json")
        throw UsageError("unknown --format '" + format + "' (text or json)");

    AnalysisOptions options;
    if (vm.count("ordering")) {
        const std::string o = vm["ordering"].as<std::string>();
        if (o == "approximate")
            options.ordering = Ordering::Approximate;
        else if (o == "complete")
            options.ordering = Ordering::Complete;
        else
            throw UsageError("unknown --ordering '" + o + "' (approximate or complete)");
    }
    if (vm.count("transitive-budget"))
        options.transitive_budget = vm["transitive-budget"].as<std::uint64_t>();
    if (vm.count("output") && vm["output"].as<std::string>().empty())
        throw UsageError("--output names no file (an empty path)");
    const bool quiet = vm.count("quiet") > 0;
    TerminalProgress progress(!quiet);
    options.progress = progress.callback();

    const auto traces = vm["trace"].as<std::vector<std::string>>();
    std::vector<ReportModel> models;
    for (const std::string& path : traces) {
        const Trace trace = load_trace(path, options.progress);
        if (options.ordering == Ordering::Complete && !trace.has_clock)
            throw UsageError(trace.path +
                             ": --ordering complete needs clock readings, which this trace lacks");
        const AnalysisResult result = analyze(trace, options);
        progress.finish();

        if (trace.truncated && !quiet)
            std::cerr << "firstrace analyze: warning: " << trace.path << " is truncated ("
                      << trace.truncation_reason << "); analyzed up to the last complete chunk\n";
        if (vm.count("verbose")) {
            for (const auto& s : result.stages)
                std::cerr << "  " << s.name << ": " << s.seconds << " s, peak RSS "
                          << s.peak_rss_bytes / (1024 * 1024) << " MiB\n";
            std::cerr << "  transitive dependences: " << result.transitive_origins
                      << " origins searched, " << result.transitive_fallbacks
                      << " fell back to the conservative superset\n";
        }
        if (vm.count("output")) {
            DatabaseWriteOptions store;
            store.progress = progress.callback();
            const std::string database = vm["output"].as<std::string>();
            const std::int64_t run = write_run(database, trace, result, run_info_for(trace), store);
            progress.finish();
            if (vm.count("verbose"))
                std::cerr << "  stored as run " << run << " in " << database << "\n";
        }
        // One trace in text: the race sites grouped straight from the analysis (dense traces
        // have hundreds of site pairs per race; a ReportModel of them would not fit).
        if (format == "text" && traces.size() == 1) {
            write_text_report(std::cout, make_report_header(trace, result),
                              listed_race_sites(trace, result), text_report_options(vm));
            return 0;
        }
        models.push_back(make_report_model(trace, result, format == "text"));
    }
    if (format == "json") {
        if (models.size() == 1) {
            write_json_report(std::cout, models.front());
        } else {
            std::cout << "{\"runs\":[";
            for (std::size_t i = 0; i < models.size(); ++i) {
                if (i > 0) std::cout << ",";
                write_json_report(std::cout, models[i]);
            }
            std::cout << "]}\n";
        }
    } else {
        write_text_report(std::cout,
                          models.size() == 1 ? models.front() : merge_report_models(models),
                          text_report_options(vm));
    }
    return 0;
}

} // namespace firstrace::cli
