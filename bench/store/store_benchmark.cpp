// Results database benchmark: writes a synthetic run with N races (default 10^6) into a new
// database, appends a second one (which adds the integrity check of an existing file), and
// reads it back (ReportModel, race-site keys, JSON and SARIF output). Prints times, database
// size and peak RSS.
//
//   firstrace_store_benchmark [--races N] [--db PATH] [--keep] [--write-only]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <string>

#include "firstrace/results_database.hpp"
#include "firstrace/triage_report.hpp"
#include "resource_usage.hpp"
#include "synthetic_run.hpp"

namespace {

using namespace firstrace;

class Stopwatch {
  public:
    double seconds() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }

  private:
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

void line(const std::string& what, double seconds, std::uint64_t races) {
    std::printf("%-44s %8.2f s  %10.0f races/s  peak RSS %6llu MiB\n", what.c_str(), seconds,
                seconds > 0 ? double(races) / seconds : 0.0,
                static_cast<unsigned long long>(peak_rss_bytes() >> 20));
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
    std::uint64_t races = 1000000;
    std::string db = "/tmp/firstrace-store-benchmark.db";
    bool keep = false;
    bool write_only = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--races" && i + 1 < argc)
            races = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--db" && i + 1 < argc)
            db = argv[++i];
        else if (a == "--keep")
            keep = true;
        else if (a == "--write-only")
            write_only = true;
        else {
            std::cerr << "usage: firstrace_store_benchmark [--races N] [--db PATH] [--keep] "
                         "[--write-only]\n";
            return 2;
        }
    }
    std::filesystem::remove(db);
    Stopwatch make;
    const bench::SyntheticRun s = bench::make_synthetic_run(races);
    std::printf(
        "synthetic run: %llu races, %zu events, %zu access sites, %zu edges, %zu partitions\n",
        static_cast<unsigned long long>(races), s.trace.event_count(), s.trace.sites.size(),
        s.result.edges.size(), s.result.partitions.size());
    line("generate", make.seconds(), races);

    // Time of each phase of a write, from the progress stages.
    std::string phase;
    Stopwatch phase_clock;
    double phase_start = 0;
    DatabaseWriteOptions options;
    options.progress = [&](const std::string& stage, double) {
        if (stage == phase) return;
        const double now = phase_clock.seconds();
        if (!phase.empty()) std::printf("    %-40s %8.2f s\n", phase.c_str(), now - phase_start);
        phase = stage;
        phase_start = now;
    };
    auto end_phases = [&] {
        std::printf("    %-40s %8.2f s\n", phase.c_str(), phase_clock.seconds() - phase_start);
        phase.clear();
    };
    Stopwatch write;
    write_run(db, s.trace, s.result, {}, options);
    end_phases();
    line("write run 1 (new database)", write.seconds(), races);
    const auto size1 = std::filesystem::file_size(db);
    if (write_only) return 0;
    Stopwatch append;
    const std::int64_t run2 = write_run(db, s.trace, s.result, {}, options);
    end_phases();
    line("append run 2 (integrity check + write)", append.seconds(), races);
    const auto size2 = std::filesystem::file_size(db);
    std::printf("database size: %.1f MiB after run 1, %.1f MiB after run 2\n",
                double(size1) / (1 << 20), double(size2) / (1 << 20));

    const ResultsDatabase results(db);
    Stopwatch read;
    ReportModel model = results.read_report(run2);
    line("read run 2 back (ReportModel)", read.seconds(), races);
    Stopwatch keys;
    const auto site_keys = results.site_keys(run2);
    line("race-site keys of run 2 (" + std::to_string(site_keys.size()) + ")", keys.seconds(),
         races);
    {
        std::ofstream null("/dev/null");
        Stopwatch json;
        write_json_report(null, model);
        line("JSON report", json.seconds(), races);
        if (model.races.size() != races) {
            std::fprintf(stderr, "read back %zu races, wrote %llu\n", model.races.size(),
                         static_cast<unsigned long long>(races));
            return 1;
        }
        Stopwatch sarif;
        std::vector<TriageRun> runs(1);
        runs[0].id = run2;
        runs[0].model = std::move(model);
        write_sarif_report(null, runs);
        line("SARIF report (race sites)", sarif.seconds(), races);
    }
    if (!keep) std::filesystem::remove(db);
    return 0;
}
