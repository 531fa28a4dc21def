// The browser's queries (firstrace/results_browser.hpp) on databases written by the real writer
// (write_run, as `firstrace analyze -o`), checked against the report model of the same run
// (read_report, a brute-force reading of every table): random traces page through every race
// exactly as a scan of the model orders them, with the filters counted the same way.
#include <algorithm>
#include <map>
#include <set>

#include "firstrace/errors.hpp"
#include "firstrace/results_browser.hpp"
#include "firstrace/results_database.hpp"
#include "store_test_support.hpp"

namespace firstrace {
namespace {

using browser::RaceFilter;
using browser::ResultsBrowser;

std::unique_ptr<ResultsBrowser> open_browser(const std::string& path) {
    auto opened = ResultsBrowser::open(path);
    EXPECT_EQ(opened.error, ResultsBrowser::OpenError::None) << opened.message;
    return std::move(opened.browser);
}

bool matches(const ReportRace& race, const RaceFilter& filter) {
    if (!filter.statuses.empty() && std::find(filter.statuses.begin(), filter.statuses.end(),
                                              race.status) == filter.statuses.end())
        return false;
    if (filter.actual_only && !race.actual.value_or(false)) return false;
    if (!filter.thread.empty() && race.a.thread != filter.thread && race.b.thread != filter.thread)
        return false;
    return true;
}

// The browser's order of races, from the model.
browser::RaceOrderKey key_of(const ReportModel& model, const ReportRace& race) {
    const bool first = model.partitions[race.partition].first;
    const int group = first ? 0 : race.status == RaceStatus::Unvalidated ? 2 : 1;
    return {group, static_cast<int>(race.status), race.partition, race.id};
}
bool before(const browser::RaceOrderKey& x, const browser::RaceOrderKey& y) {
    return std::tie(x.group, x.status, x.partition, x.race) <
           std::tie(y.group, y.status, y.partition, y.race);
}

TEST(BrowserQueries, RefusesMissingForeignAndNewerFiles) {
    test::TempDir dir;
    EXPECT_EQ(ResultsBrowser::open(dir.file("none.db")).error, ResultsBrowser::OpenError::Missing);
    test::write_file(dir.file("junk.db"), std::string(4096, 'x'));
    EXPECT_EQ(ResultsBrowser::open(dir.file("junk.db")).error, ResultsBrowser::OpenError::Corrupt);
    test::write_file(dir.file("empty.db"), "");
    EXPECT_EQ(ResultsBrowser::open(dir.file("empty.db")).error, ResultsBrowser::OpenError::Foreign);
    const test::HandMadeRun h = test::hand_made_run();
    write_run(dir.file("newer.db"), h.trace, h.result);
    std::string bytes = test::read_file(dir.file("newer.db"));
    bytes[63] = static_cast<char>(results_database_schema_version() + 1); // user_version
    test::write_file(dir.file("newer.db"), bytes);
    const auto newer = ResultsBrowser::open(dir.file("newer.db"));
    EXPECT_EQ(newer.error, ResultsBrowser::OpenError::TooNew);
    EXPECT_NE(newer.message.find("newer.db"), std::string::npos);
}

TEST(BrowserQueries, HandMadeRunDetailsStacksHeapBlockAndHistory) {
    test::TempDir dir;
    const test::HandMadeRun h = test::hand_made_run();
    const std::int64_t run = write_run(dir.file("h.db"), h.trace, h.result);
    const auto db = open_browser(dir.file("h.db"));
    ASSERT_TRUE(db);
    const ReportModel model = ResultsDatabase(dir.file("h.db")).read_report(run);
    ASSERT_FALSE(model.races.empty());
    for (const ReportRace& race : model.races) {
        const auto details = db->race_details(run, race.id);
        ASSERT_TRUE(details);
        EXPECT_EQ(details->summary.status, race.status);
        EXPECT_EQ(details->a.thread, race.a.thread);
        EXPECT_EQ(details->b.thread, race.b.thread);
        EXPECT_EQ(details->variables, race.variables);
        ASSERT_EQ(details->sites_a.size(), race.sites_a.size());
        ASSERT_EQ(details->sites_b.size(), race.sites_b.size());
        // The browser's stack holds the access frame itself, then the frames the report lists.
        for (std::size_t i = 0; i < race.sites_a.size(); ++i) {
            EXPECT_EQ(details->sites_a[i].kind, race.sites_a[i].kind);
            EXPECT_GE(details->sites_a[i].stack.size(), race.sites_a[i].stack.size());
        }
        const browser::History history = db->history(run, race.id);
        ASSERT_FALSE(history.races.empty());
        EXPECT_EQ(history.races.front().id, race.id); // the focus race always, first
        for (const browser::HistoryEdge& edge : history.edges) {
            auto shown = [&](const browser::EventKey& key) {
                return std::any_of(history.events.begin(), history.events.end(),
                                   [&](const browser::HistoryEvent& e) { return e.key == key; });
            };
            EXPECT_TRUE(shown(edge.from) && shown(edge.to));
        }
    }
    // The heap block of the races on 0x7000.. and its allocating thread.
    bool heap = false;
    for (const ReportRace& race : model.races)
        if (const auto details = db->race_details(run, race.id); details && details->heap_block)
            heap = details->heap_block->lo == 0x7000 && details->heap_block->hi == 0x7018;
    EXPECT_TRUE(heap);
    EXPECT_FALSE(db->race_details(run, 100000));
}

// Every race of random runs is reached by paging race sites and their races, sites come in
// the order of their earliest race, and the counts under filters equal the model's.
TEST(BrowserQueries, PagingReachesEveryRaceInOrderOnRandomRuns) {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        test::TempDir dir;
        test::write_random_std(dir.file("t.std"), seed, 300);
        const Trace trace = load_trace(dir.file("t.std"));
        const AnalysisResult result = analyze(trace);
        const std::int64_t run = write_run(dir.file("r.db"), trace, result);
        const ReportModel model = ResultsDatabase(dir.file("r.db")).read_report(run);
        const auto db = open_browser(dir.file("r.db"));
        ASSERT_TRUE(db);

        std::vector<RaceFilter> filters(4);
        filters[1].statuses = {RaceStatus::Feasible};
        filters[2].thread = model.races.empty() ? "" : model.races.front().b.thread;
        filters[3].statuses = {RaceStatus::Unvalidated, RaceStatus::FeasibleEc};
        filters[3].actual_only = false;
        for (const RaceFilter& filter : filters) {
            std::set<std::uint32_t> expected;
            for (const ReportRace& race : model.races)
                if (matches(race, filter)) expected.insert(race.id);

            std::set<std::uint32_t> reached;
            browser::RaceSiteCursor cursor;
            std::optional<browser::RaceOrderKey> previous_lead;
            std::int64_t counted = 0;
            while (!cursor.done) {
                const auto sites = db->race_sites(run, filter, cursor, 3); // small pages
                std::vector<std::int64_t> pairs;
                for (const browser::RaceSite& site : sites) {
                    const ReportRace& lead = model.races.at(site.lead_race);
                    const browser::RaceOrderKey key = key_of(model, lead);
                    if (previous_lead) {
                        EXPECT_FALSE(before(key, *previous_lead));
                    }
                    previous_lead = key;
                    pairs.push_back(site.pair_id);
                    // The site's races, two at a time, in the browser's order.
                    browser::RaceOrderKey after;
                    std::vector<browser::RaceSummary> races;
                    for (;;) {
                        const auto page = db->site_races(run, site.pair_id, filter, after, 2);
                        races.insert(races.end(), page.begin(), page.end());
                        if (page.size() < 2) break;
                        after = browser::order_key_of(page.back());
                    }
                    ASSERT_FALSE(races.empty());
                    EXPECT_EQ(races.front().id, site.lead_race); // the lead is its earliest
                    for (std::size_t i = 0; i < races.size(); ++i) {
                        EXPECT_TRUE(matches(model.races.at(races[i].id), filter));
                        EXPECT_TRUE(db->race_matches(run, races[i].id, filter));
                        if (i > 0) {
                            EXPECT_TRUE(before(browser::order_key_of(races[i - 1]),
                                               browser::order_key_of(races[i])));
                        }
                        reached.insert(static_cast<std::uint32_t>(races[i].id));
                        const auto of = db->pairs_of_race(run, races[i].id);
                        EXPECT_NE(std::find(of.begin(), of.end(), site.pair_id), of.end());
                    }
                }
                for (const browser::StatusCounts& c : db->site_race_counts(run, filter, pairs))
                    counted += c.races;
            }
            EXPECT_EQ(reached, expected);
            EXPECT_GE(counted, static_cast<std::int64_t>(expected.size()));

            RaceFilter any = filter;
            any.statuses.clear();
            const browser::StatusCounts counts = db->status_counts(run, filter);
            std::int64_t feasible = 0, unvalidated = 0, all = 0;
            for (const ReportRace& race : model.races)
                if (matches(race, any)) {
                    ++all;
                    feasible += race.status == RaceStatus::Feasible;
                    unvalidated += race.status == RaceStatus::Unvalidated;
                }
            EXPECT_EQ(counts.races, all);
            EXPECT_EQ(counts.feasible, feasible);
            EXPECT_EQ(counts.unvalidated, unvalidated);
        }
        // A search by race id finds that race.
        if (!model.races.empty()) {
            RaceFilter search;
            search.search = " #" + std::to_string(model.races.back().id) + " ";
            EXPECT_TRUE(db->race_matches(run, model.races.back().id, search));
            EXPECT_GE(db->status_counts(run, search).races, 1);
        }
    }
}

} // namespace
} // namespace firstrace
