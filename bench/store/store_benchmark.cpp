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

namespace {

using namespace firstrace;

struct Synthetic {
    Trace trace;
    AnalysisResult result;
};

// 16 threads x 4000 computation events with 2 access sites each, 2000 locations in 40 files,
// N random races between events of different threads, 2% of them in 200 first partitions.
Synthetic make_synthetic(std::uint64_t races) {
    Synthetic s;
    Trace& t = s.trace;
    t.path = "synthetic.trace";
    t.format = "firstrace";
    t.has_clock = true;
    const std::uint32_t processes = 16, events = 4000, locations = 2000, files = 40;
    for (std::uint32_t l = 0; l < locations; ++l)
        t.locations.push_back({"/src/project/module" + std::to_string(l % files) + ".c", 10 + l / files, 5,
                               "function_" + std::to_string(l / 7), 0x400000 + 16ull * l});
    std::mt19937_64 rng(42);
    std::uint64_t clock = 0;
    for (std::uint32_t p = 0; p < processes; ++p) {
        Process pr;
        pr.name = "thread " + std::to_string(p + 1);
        pr.parent = p == 0 ? kNone : 0;
        for (std::uint32_t e = 0; e < events; ++e) {
            Event ev;
            ev.kind = EventKind::Computation;
            ev.clock_start = ++clock;
            ev.clock_finish = ++clock;
            ev.first_site = static_cast<std::uint32_t>(t.sites.size());
            ev.site_count = 2;
            for (int k = 0; k < 2; ++k) {
                AccessSite site;
                site.location = static_cast<std::uint32_t>(rng() % locations);
                site.flags = k == 0 ? kAccessWrite : kAccessRead;
                site.first_range = static_cast<std::uint32_t>(t.ranges.size());
                site.range_count = 1;
                const std::uint64_t lo = 0x7f0000000000ull + 8 * (rng() % 100000);
                t.ranges.push_back({lo, lo + 8});
                t.sites.push_back(site);
            }
            pr.events.push_back(ev);
        }
        t.processes.push_back(std::move(pr));
    }
    AnalysisResult& r = s.result;
    r.ordering = Ordering::Complete;
    const std::uint32_t partitions = 1000, first = 200;
    r.partitions.resize(partitions);
    for (std::uint32_t p = 0; p < partitions; ++p) {
        r.partitions[p].id = p;
        r.partitions[p].first = p < first;
        if (p + 1 < partitions) r.partitions[p].after = {std::max(first, p + 1)};
    }
    r.races.reserve(races);
    for (std::uint64_t i = 0; i < races; ++i) {
        Race race;
        race.id = static_cast<std::uint32_t>(i);
        std::uint32_t pa = static_cast<std::uint32_t>(rng() % processes), pb = static_cast<std::uint32_t>(rng() % processes);
        if (pa == pb) pb = (pa + 1) % processes;
        if (pa > pb) std::swap(pa, pb);
        race.a = {pa, static_cast<std::uint32_t>(rng() % events)};
        race.b = {pb, static_cast<std::uint32_t>(rng() % events)};
        const std::uint64_t roll = rng() % 100;
        race.status = roll < 30 ? RaceStatus::Feasible : roll < 40 ? RaceStatus::FeasibleEc : RaceStatus::Unvalidated;
        if (race.status == RaceStatus::Unvalidated) race.tangle = static_cast<std::uint32_t>(rng() % 5000);
        race.actual = (roll % 2) == 0;
        race.partition = (rng() % 50 == 0) ? static_cast<std::uint32_t>(rng() % first)
                                            : first + static_cast<std::uint32_t>(rng() % (partitions - first));
        const Event& ea = t.processes[pa].events[race.a.index];
        const Event& eb = t.processes[pb].events[race.b.index];
        race.sites_a = {ea.first_site};
        race.sites_b = {eb.first_site + 1};
        race.conflicts = {t.ranges[t.sites[ea.first_site].first_range]};
        r.races.push_back(std::move(race));
    }
    for (const Race& race : r.races) r.partitions[race.partition].races.push_back(race.id);
    for (std::uint32_t i = 0; i < 100000; ++i) {
        const auto p = static_cast<std::uint32_t>(rng() % processes), q = (p + 1) % processes;
        r.edges.push_back({i % 3 == 0 ? EdgeKind::Ordering : i % 3 == 1 ? EdgeKind::SharedData : EdgeKind::EventControl,
                           {p, static_cast<std::uint32_t>(rng() % events)},
                           {q, static_cast<std::uint32_t>(rng() % events)},
                           i % 3 == 1 && i % 2 == 0});
    }
    r.counts.events = t.event_count();
    r.counts.computation_events = t.event_count();
    r.counts.accesses = t.access_count();
    r.counts.processes = processes;
    r.counts.apparent = races;
    for (const Race& race : r.races) {
        r.counts.feasible += race.status == RaceStatus::Feasible;
        r.counts.feasible_ec += race.status == RaceStatus::FeasibleEc;
        r.counts.unvalidated += race.status == RaceStatus::Unvalidated;
        r.counts.actual += race.actual.value_or(false);
    }
    r.counts.tangles = 5000;
    r.counts.partitions = partitions;
    r.counts.first_partitions = first;
    return s;
}

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

}  // namespace

int main(int argc, char** argv) {
    std::uint64_t races = 1000000;
    std::string db = "/tmp/firstrace-store-benchmark.db";
    bool keep = false;
    bool write_only = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--races" && i + 1 < argc) races = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--db" && i + 1 < argc) db = argv[++i];
        else if (a == "--keep") keep = true;
        else if (a == "--write-only") write_only = true;
        else {
            std::cerr << "usage: firstrace_store_benchmark [--races N] [--db PATH] [--keep] [--write-only]\n";
            return 2;
        }
    }
    std::filesystem::remove(db);
    Stopwatch make;
    const Synthetic s = make_synthetic(races);
    std::printf("synthetic run: %llu races, %zu events, %zu access sites, %zu edges, %zu partitions\n",
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
    std::printf("database size: %.1f MiB after run 1, %.1f MiB after run 2\n", double(size1) / (1 << 20),
                double(size2) / (1 << 20));

    const ResultsDatabase results(db);
    Stopwatch read;
    ReportModel model = results.read_report(run2);
    line("read run 2 back (ReportModel)", read.seconds(), races);
    Stopwatch keys;
    const auto site_keys = results.site_keys(run2);
    line("race-site keys of run 2 (" + std::to_string(site_keys.size()) + ")", keys.seconds(), races);
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
