// The stress suite (issue 14): worst-case trace shapes analysed like `firstrace analyze` does
// (analysis + default text report), each in a child process under a memory cap and a CPU-time
// cap, printing time, peak memory, races, race sites, the unvalidated share, first partitions
// without a validated race (Thm 8.2) and, on small traces, how many statuses differ from the
// exact (unbounded) transitive search. A run over a cap is reported as failed.
//
//   firstrace_stress                       the suite (see kSuite)
//   firstrace_stress --quick               small sizes only
//   firstrace_stress --shape hot --threads 8 --lines 100000 [--cap-mib 4096] [--exact]
//   firstrace_stress --shape hot --lines 10000 --write hot.std   only writes that trace
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <vector>

#include "firstrace/analysis.hpp"
#include "firstrace/report_model.hpp"
#include "firstrace/trace_loader.hpp"
#include "firstrace/triage_report.hpp"
#include "hb_epoch_detector.hpp"
#include "stress_shapes.hpp"

namespace {

using firstrace::bench::StressShape;

struct Case {
    StressShape shape;
    bool exact = false; // also compare statuses with the unbounded search
};

// What the child reports through the pipe. Time and memory are measured in the child right
// after the analysis and its text report (before the exact comparison, which is not timed).
struct Outcome {
    double cpu_seconds = 0, peak_mib = 0;
    double report_seconds = 0; // of cpu_seconds: grouping the race sites and the text report
    unsigned long long events = 0, races = 0, sites = 0, unvalidated = 0, partitions = 0, first = 0,
                       first_unvalidated = 0, fallbacks = 0, origins = 0;
    long long differing = -1; // statuses differing from the exact search; -1: not compared
};

// The yardstick's outcome: the epoch-based HB detector on the same trace file.
struct HbOutcome {
    double cpu_seconds = 0, peak_mib = 0;
    unsigned long long racy_accesses = 0;
};

// CPU time (user + system) and peak RSS of this process so far.
std::pair<double, double> cpu_and_peak() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    const double cpu = double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
                       double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
    return {cpu, double(u.ru_maxrss) / 1024.0};
}

Outcome analyse(const std::string& path, bool exact) {
    Outcome o;
    const auto [cpu0, peak0] = cpu_and_peak();
    (void)peak0;
    const firstrace::Trace trace = firstrace::read_std_trace(path);
    firstrace::AnalysisResult result = firstrace::analyze(trace);
    const double analysed = cpu_and_peak().first;
    {
        std::ofstream null("/dev/null");
        // As `firstrace analyze` does: only the sites shown are built in full.
        const firstrace::TextReportOptions options;
        firstrace::ListedRaceSites listed =
            firstrace::listed_race_sites(trace, result, options.max_sites);
        // The race sites the report counts ("N race sites to look at": those of first
        // partitions and of validated races).
        o.sites = listed.sites.size() + listed.unlisted_sites;
        firstrace::write_text_report(null, firstrace::make_report_header(trace, result),
                                     std::move(listed), options);
    }
    const auto [cpu1, peak1] = cpu_and_peak();
    o.cpu_seconds = cpu1 - cpu0;
    o.report_seconds = cpu1 - analysed;
    o.peak_mib = peak1;
    o.events = result.counts.events;
    o.races = result.races.size();
    o.unvalidated = result.counts.unvalidated;
    o.partitions = result.partitions.size();
    o.origins = result.transitive_origins;
    o.fallbacks = result.transitive_fallbacks;
    std::vector<bool> validated(result.partitions.size(), false);
    for (const firstrace::Race& r : result.races)
        if (r.status != firstrace::RaceStatus::Unvalidated) validated[r.partition] = true;
    for (const auto& p : result.partitions) {
        if (!p.first) continue;
        ++o.first;
        o.first_unvalidated += !validated[p.id];
    }
    if (exact) {
        firstrace::AnalysisOptions options;
        options.transitive_budget = std::uint64_t(1) << 40;
        const firstrace::AnalysisResult e = firstrace::analyze(trace, options);
        o.differing = 0;
        for (std::size_t i = 0; i < e.races.size(); ++i)
            o.differing += e.races[i].status != result.races[i].status;
    }
    return o;
}

HbOutcome detect_hb(const std::string& path) {
    HbOutcome o;
    const auto [cpu0, peak0] = cpu_and_peak();
    (void)peak0;
    std::ifstream in(path);
    o.racy_accesses = firstrace::bench::HbEpochDetector().run(in).racy_accesses;
    const auto [cpu1, peak1] = cpu_and_peak();
    o.cpu_seconds = cpu1 - cpu0;
    o.peak_mib = peak1;
    return o;
}

// Runs f() in a child under the caps and returns what it wrote, or the reason it failed.
template <class Result, class F>
std::optional<Result> in_child(F&& f, unsigned long long cap_mib, unsigned cpu_seconds,
                               std::string& why) {
    int fds[2];
    if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
    const pid_t child = fork();
    if (child == 0) {
        close(fds[0]);
        const rlimit as{cap_mib << 20, cap_mib << 20};
        const rlimit cpu{cpu_seconds, cpu_seconds};
        setrlimit(RLIMIT_AS, &as);
        setrlimit(RLIMIT_CPU, &cpu);
        int code = 0;
        try {
            const Result r = f();
            if (write(fds[1], &r, sizeof r) != sizeof r) code = 4;
        } catch (const std::bad_alloc&) {
            code = 3;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s\n", e.what());
            code = 2;
        }
        _exit(code);
    }
    close(fds[1]);
    Result r;
    const bool got = read(fds[0], &r, sizeof r) == sizeof r;
    close(fds[0]);
    int status = 0;
    rusage usage{};
    wait4(child, &status, 0, &usage);
    if (got && WIFEXITED(status) && WEXITSTATUS(status) == 0) return r;
    why = (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU ? "CPU-time cap"
           : WIFEXITED(status) && WEXITSTATUS(status) == 3    ? "memory cap"
                                                              : "error") +
          std::string(", ") + std::to_string(usage.ru_maxrss / 1024) + " MiB";
    return std::nullopt;
}

// Runs one case: the HB yardstick, then firstrace, each in a child under the caps. Returns
// false when firstrace failed or a first partition lacks a validated race (Thm 8.2).
bool run_case(const Case& c, const std::string& dir, unsigned long long cap_mib,
              unsigned cpu_seconds) {
    const std::string path = dir + "/" + c.shape.name + "-" + std::to_string(c.shape.threads) +
                             "-" + std::to_string(c.shape.lines) + ".std";
    unsigned long long lines = 0;
    {
        std::ofstream out(path);
        lines = firstrace::bench::StressTraceWriter(c.shape).write(out);
    }
    std::string hb_why, why;
    const auto hb =
        in_child<HbOutcome>([&] { return detect_hb(path); }, cap_mib, cpu_seconds, hb_why);
    const auto o =
        in_child<Outcome>([&] { return analyse(path, c.exact); }, cap_mib, cpu_seconds, why);
    std::filesystem::remove(path);
    std::printf("%-7s %4u %9llu ", c.shape.name.c_str(), c.shape.threads, lines);
    if (hb)
        std::printf("%7.2f %7.0f %10llu | ", hb->cpu_seconds, hb->peak_mib, hb->racy_accesses);
    else
        std::printf("FAILED (%s) | ", hb_why.c_str());
    if (!o) {
        std::printf("FAILED (%s; caps %llu MiB, %u s)\n", why.c_str(), cap_mib, cpu_seconds);
        std::fflush(stdout);
        return false;
    }
    // Issue 14's bar: at most the HB detector's time, and at most twice its memory or, where
    // apparent races outnumber the lines, at most 64 bytes per apparent race.
    const char* verdict = "-";
    if (hb) {
        const double memory_bar =
            o->races > lines ? std::max(2 * hb->peak_mib, 64.0 * double(o->races) / 1048576.0)
                             : 2 * hb->peak_mib;
        verdict = o->cpu_seconds <= hb->cpu_seconds && o->peak_mib <= memory_bar ? "yes"
                  : o->cpu_seconds <= hb->cpu_seconds                            ? "time"
                  : o->peak_mib <= memory_bar                                    ? "memory"
                                                                                 : "no";
    }
    std::printf("%7.2f %7.0f %6.2f %4s %11llu %7llu %6.2f%% %9llu %5llu %4llu %9llu/%-9llu",
                o->cpu_seconds, o->peak_mib, o->report_seconds, verdict, o->races, o->sites,
                o->races ? 100.0 * double(o->unvalidated) / double(o->races) : 0.0, o->partitions,
                o->first, o->first_unvalidated, o->fallbacks, o->origins);
    if (o->differing >= 0)
        std::printf(" %6.2f%%", o->races ? 100.0 * double(o->differing) / double(o->races) : 0.0);
    std::printf("\n");
    std::fflush(stdout);
    return o->first_unvalidated == 0;
}

} // namespace

int main(int argc, char** argv) {
    namespace po = boost::program_options;
    Case one;
    unsigned long long cap_mib = 4096;
    unsigned cpu_seconds = 600;
    std::string dir = std::filesystem::temp_directory_path().string();
    po::options_description desc("usage: firstrace_stress [options]\n\noptions");
    desc.add_options()("help,h", "show this help")("quick", "small sizes only")(
        "shape", po::value(&one.shape.name),
        "run one case: hot, vars, waves, lock, low, churn or random")(
        "threads", po::value(&one.shape.threads)->default_value(8), "threads of that case")(
        "lines", po::value(&one.shape.lines)->default_value(100000), "trace lines of that case")(
        "seed", po::value(&one.shape.seed)->default_value(1),
        "random seed")("exact", "also compare statuses with the unbounded transitive search")(
        "cap-mib", po::value(&cap_mib)->default_value(cap_mib),
        "address-space cap per run (MiB; at most 4096 on a shared machine)")(
        "cpu-seconds", po::value(&cpu_seconds)->default_value(cpu_seconds),
        "CPU-time cap per run")("dir", po::value(&dir)->default_value(dir),
                                "where the traces are written (removed after each run)")(
        "write", po::value<std::string>(), "only write the trace of --shape to this file");
    po::variables_map vm;
    try {
        po::store(po::parse_command_line(argc, argv, desc), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        std::cerr << "firstrace_stress: " << e.what() << "\n";
        return 2;
    }
    if (vm.count("help")) {
        std::cout << desc << "\n";
        return 0;
    }
    if (vm.count("write")) {
        if (!vm.count("shape")) {
            std::cerr << "firstrace_stress: --write needs --shape\n";
            return 2;
        }
        std::ofstream out(vm["write"].as<std::string>());
        const auto lines = firstrace::bench::StressTraceWriter(one.shape).write(out);
        std::cerr << "wrote " << lines << " lines\n";
        return out ? 0 : 2;
    }
    std::vector<Case> cases;
    if (vm.count("shape")) {
        one.exact = vm.count("exact") > 0;
        cases.push_back(one);
    } else {
        auto add = [&](const char* name, std::uint32_t threads, std::uint64_t lines,
                       bool exact = false) {
            cases.push_back({{name, threads, lines, 1}, exact});
        };
        // Small dense traces: statuses against the exact search.
        for (const char* name : {"hot", "vars", "waves", "random"})
            add(name, 8, 10000, true);
        if (!vm.count("quick")) {
            // The shapes of issue 14's table.
            add("hot", 8, 100000);
            add("vars", 8, 100000);
            add("waves", 8, 1400000);
            add("random", 8, 1000000);
            add("random", 128, 2000000);
            add("low", 8, 1000000);
            add("lock", 8, 1000000);
            add("lock", 2, 10000000);
            add("churn", 1, 1000000);
            add("random", 8, 10000000);
        }
    }
    // hb-*: the epoch-based HB detector (hb_epoch_detector.hpp) on the same trace; fr-*:
    // firstrace (analysis + text report); CPU seconds, peak RSS, rep-s: of fr-s, the site
    // grouping and text report; sites: the race sites the text report counts; ok: within issue 14's
    // bar
    // ("time" / "memory": only that one met).
    std::printf("%-7s %4s %9s %7s %7s %10s | %7s %7s %6s %4s %11s %7s %7s %9s %5s %4s %19s %7s\n",
                "shape", "thr", "lines", "hb-s", "hb-MiB", "hb-racy", "fr-s", "fr-MiB", "rep-s",
                "ok", "races", "sites", "unval", "partitns", "first", "!8.2", "fallback/origins",
                "!exact");
    bool ok = true;
    for (const Case& c : cases)
        ok = run_case(c, dir, cap_mib, cpu_seconds) && ok;
    return ok ? 0 : 1;
}
