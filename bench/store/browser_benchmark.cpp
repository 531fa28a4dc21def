// The browser's queries (firstrace/results_browser.hpp) on a results database of N races
// (default 10^6): the time of each action of firstrace-gui as the store answers it. Writes the
// synthetic run (synthetic_run.hpp) through the real writer when the database does not exist.
// Prints one line per action; issue 15 asks for every action under a second.
//
//   firstrace_browser_benchmark [--races N] [--db PATH]
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <string>

#include "firstrace/results_browser.hpp"
#include "firstrace/results_database.hpp"
#include "synthetic_run.hpp"

namespace {

using namespace firstrace;
using namespace firstrace::browser;

double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// CPU time of the process, summed over the benchmark's lines: on a loaded machine the wall
// time also counts the waits for a core, which say nothing about the queries.
double total_cpu = 0;

double seconds_of(const std::function<void()>& action) {
    const auto start = std::chrono::steady_clock::now();
    const double cpu = cpu_seconds();
    action();
    total_cpu += cpu_seconds() - cpu;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// One action: wall time, and CPU time since the previous line.
void line(const std::string& what, double seconds, const std::string& note = {}) {
    static double reported_cpu = 0;
    std::printf("%-52s %7.0f ms wall %6.0f ms CPU  %s\n", what.c_str(), seconds * 1000,
                (total_cpu - reported_cpu) * 1000, note.c_str());
    reported_cpu = total_cpu;
    std::fflush(stdout);
}

// What the window does for a filter: the toggles' counts, the first page of race sites and
// their counts, the first site's races and the details and history of its lead race.
void show(const ResultsBrowser& db, std::int64_t run, const RaceFilter& filter,
          const std::string& name) {
    std::vector<RaceSite> page;
    std::vector<std::int64_t> pairs;
    const double counts = seconds_of([&] { db.status_counts(run, filter); });
    const double sites = seconds_of([&] {
        RaceSiteCursor cursor;
        page = db.race_sites(run, filter, cursor, 100);
    });
    // The window counts the sites it shows, 64 at a time (RaceSiteTreeModel::kCountBatch).
    for (std::size_t i = 0; i < page.size() && i < 64; ++i)
        pairs.push_back(page[i].pair_id);
    const double site_counts = seconds_of([&] { db.site_race_counts(run, filter, pairs); });
    const double selection = seconds_of([&] {
        if (page.empty()) return;
        db.site_races(run, page.front().pair_id, filter, RaceOrderKey(), 100);
        const auto details = db.race_details(run, page.front().lead_race);
        db.history(run, page.front().lead_race, 6, 3,
                   details ? details->ordered_after.race : std::nullopt);
    });
    char note[160];
    std::snprintf(note, sizeof note,
                  "toggle counts %.0f, %zu sites %.0f, 64 counted %.0f, selected race %.0f ms",
                  counts * 1000, page.size(), sites * 1000, site_counts * 1000, selection * 1000);
    line(name, counts + sites + site_counts + selection, note);
}

} // namespace

int main(int argc, char** argv) {
    std::uint64_t races = 1000000;
    std::string path = "/tmp/firstrace-browser-benchmark.db";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--races" && i + 1 < argc)
            races = std::strtoull(argv[++i], nullptr, 10);
        else if (a == "--db" && i + 1 < argc)
            path = argv[++i];
        else {
            std::cerr << "usage: firstrace_browser_benchmark [--races N] [--db PATH]\n";
            return 2;
        }
    }
    if (!std::filesystem::exists(path)) {
        const double t = seconds_of([&] {
            const bench::SyntheticRun s = bench::make_synthetic_run(races);
            write_run(path, s.trace, s.result);
        });
        line("write the synthetic run (" + std::to_string(races) + " races)", t);
    }
    std::unique_ptr<ResultsBrowser> db;
    std::int64_t run = 0;
    line("open", seconds_of([&] {
             auto opened = ResultsBrowser::open(path);
             if (!opened.browser) {
                 std::cerr << opened.message << "\n";
                 std::exit(1);
             }
             db = std::move(opened.browser);
             run = db->runs().back().id;
         }));
    line("filter choices (files, threads)", seconds_of([&] {
             db->race_files(run);
             db->thread_names(run);
         }));
    show(*db, run, RaceFilter(), "first screen: sites, counts, details, history");
    RaceSiteCursor cursor;
    line("ten more pages of race sites", seconds_of([&] {
             for (int i = 0; i < 10; ++i)
                 db->race_sites(run, RaceFilter(), cursor, 100);
         }));
    const auto last = static_cast<std::int64_t>(races) - 1;
    line("jump to the last race (its sites, details, history)", seconds_of([&] {
             db->pairs_of_race(run, last);
             db->race(run, last);
             db->race_details(run, last);
             db->history(run, last);
         }));
    RaceFilter filter;
    filter.statuses = {RaceStatus::FeasibleEc};
    filter.thread = "thread 3";
    show(*db, run, filter, "filter feasible-ec + thread 3");
    filter = RaceFilter();
    filter.file = "/src/project/module27.c";
    show(*db, run, filter, "filter file module27.c");
    filter = RaceFilter();
    filter.search = "function_99";
    show(*db, run, filter, "search function_99");
    filter.search = "#" + std::to_string(last);
    show(*db, run, filter, "search #" + std::to_string(last));
    return 0;
}
