// libFuzzer target: the results database readers on one database file: ResultsDatabase (what
// `firstrace report` reads: runs, reports, site keys, sources) and ResultsBrowser (the GUI's
// queries: race sites, races, details, history).
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "firstrace/results_browser.hpp"
#include "firstrace/results_database.hpp"
#include "fuzz_support.hpp"

namespace {

// A few runs, sites and races of each are enough: every row goes through the same code, and
// each race's details cost dozens of queries (10^5 iterations must stay affordable).
constexpr std::size_t kRunsRead = 2;
constexpr int kRacesRead = 2;
constexpr int kSitesRead = 2;

void read_database(const std::string& path) {
    const firstrace::ResultsDatabase database(path);
    const auto runs = database.runs();
    for (std::size_t i = 0; i < std::min(runs.size(), kRunsRead); ++i) {
        const firstrace::ReportModel report = database.read_report(runs[i].id);
        (void)database.site_keys(runs[i].id);
        for (std::size_t r = 0; r < std::min<std::size_t>(report.races.size(), kRacesRead); ++r)
            for (const auto& site : report.races[r].sites_a)
                (void)database.source_text(runs[i].id, site.file);
    }
}

void browse_database(const std::string& path) {
    namespace browser = firstrace::browser;
    auto opened = browser::ResultsBrowser::open(path);
    if (!opened.browser) return;
    const browser::ResultsBrowser& b = *opened.browser;
    const auto runs = b.runs();
    for (std::size_t i = 0; i < std::min(runs.size(), kRunsRead); ++i) {
        const std::int64_t run = runs[i].id;
        const auto threads = b.thread_names(run);
        const auto files = b.race_files(run);
        browser::RaceFilter filter;
        (void)b.status_counts(run, filter);
        browser::RaceSiteCursor cursor;
        const auto sites = b.race_sites(run, filter, cursor, kSitesRead);
        for (const auto& site : sites) {
            const auto races = b.site_races(run, site.pair_id, filter, {}, kRacesRead);
            for (const auto& race : races) {
                (void)b.race_details(run, race.id);
                (void)b.history(run, race.id);
                (void)b.pairs_of_race(run, race.id);
            }
        }
        // The filters the GUI offers, on what the run names.
        filter.search = "#1";
        if (!threads.empty()) filter.thread = threads.front();
        if (!files.empty()) filter.file = files.front();
        browser::RaceSiteCursor filtered;
        (void)b.race_sites(run, filter, filtered, kSitesRead);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = firstrace::fuzz::scratch_file("results.db", data, size);
    try {
        read_database(path);
    } catch (const firstrace::InputError& error) {
        firstrace::fuzz::check_input_error(error, path);
    }
    try {
        browse_database(path);
    } catch (const firstrace::InputError& error) {
        firstrace::fuzz::check_input_error(error, path);
    }
    return 0;
}
