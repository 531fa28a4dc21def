// What is written is what is read back: ReportModel equality (through its JSON), race sites,
// views, stored source text.
#include <sqlite3.h>
#include <sys/stat.h>

#include <set>

#include "firstrace/errors.hpp"
#include "firstrace/results_database.hpp"
#include "firstrace/trace_metadata.hpp"
#include "firstrace/triage_report.hpp"
#include "store_test_support.hpp"

namespace firstrace {
namespace {

using test::TempDir;

std::int64_t count(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr);
    std::int64_t v = -1;
    if (s && sqlite3_step(s) == SQLITE_ROW) v = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(db);
    return v;
}

std::vector<std::string> model_site_keys(const ReportModel& model) {
    std::vector<std::string> keys;
    for (const RaceSite& s : group_race_sites(model))
        keys.push_back(s.key);
    std::sort(keys.begin(), keys.end());
    return keys;
}

TEST(RoundTrip, HandMadeRunReadsBackAsMakeReportModel) {
    TempDir dir;
    const std::string path = dir.file("r.db");
    const test::HandMadeRun h = test::hand_made_run();
    const std::int64_t id = write_run(path, h.trace, h.result);
    const ReportModel expected = make_report_model(h.trace, h.result);
    const ResultsDatabase db(path);
    const ReportModel actual = db.read_report(id);
    EXPECT_EQ(test::json_of(actual), test::json_of(expected));
    // Fields the JSON does not show.
    ASSERT_EQ(actual.races.size(), expected.races.size());
    for (std::size_t i = 0; i < actual.races.size(); ++i) {
        EXPECT_EQ(actual.races[i].sites_a, expected.races[i].sites_a);
        EXPECT_EQ(actual.races[i].sites_b, expected.races[i].sites_b);
    }
    EXPECT_EQ(db.site_keys(id), model_site_keys(expected));
    const RunSummary run = db.run(id);
    EXPECT_TRUE(run.truncated);
    EXPECT_EQ(run.tool_version, FIRSTRACE_VERSION);
    EXPECT_EQ(run.counts.apparent, 3u);
    EXPECT_EQ(run.analyzed_at.size(), std::string("2026-01-01T00:00:00Z").size());
}

// Events sharing one run of access sites (the reader's trace_site_runs.hpp) each hold rows of
// their own in access_sites, as if each had its copy: the first the trace's ids, a later one
// ids after them, and the race accesses of a later one name its rows.
TEST(RoundTrip, SharedSiteRunsGetRowsPerEvent) {
    TempDir dir;
    const std::string path = dir.file("r.db");
    test::HandMadeRun h = test::hand_made_run();
    const std::size_t trace_sites = h.trace.sites.size();
    Event again = h.trace.processes[1].events[0]; // the same accesses as thread 2's event 0
    again.clock_start = again.clock_finish = 11;
    h.trace.processes[1].events.push_back(again);
    Race r3 = h.result.races[0];
    r3.id = 3;
    r3.b = {1, 2};
    h.result.races.push_back(r3);
    ++h.result.partitions[0].race_count;
    const std::int64_t id = write_run(path, h.trace, h.result);
    EXPECT_EQ(count(path, "SELECT count(*) FROM access_sites WHERE process = 1 AND event_index = 2"
                          " AND id >= " +
                              std::to_string(trace_sites)),
              3);
    EXPECT_EQ(count(path, "SELECT count(*) FROM access_sites WHERE process = 1 AND event_index = 0"
                          " AND id < " +
                              std::to_string(trace_sites)),
              3);
    EXPECT_EQ(count(path, "SELECT count(*) FROM site_ranges"), 5 + 3);
    EXPECT_EQ(count(path, "SELECT count(*) FROM race_accesses WHERE race_id = 3 AND side = 'b'"),
              count(path, "SELECT count(*) FROM race_accesses AS x JOIN access_sites AS s ON"
                          " s.run_id = x.run_id AND s.id = x.site WHERE x.race_id = 3 AND"
                          " x.side = 'b' AND s.process = 1 AND s.event_index = 2"));
    EXPECT_GT(count(path, "SELECT count(*) FROM race_accesses WHERE race_id = 3 AND side = 'b'"),
              0);
    const ReportModel expected = make_report_model(h.trace, h.result);
    const ReportModel actual = ResultsDatabase(path).read_report(id);
    EXPECT_EQ(test::json_of(actual), test::json_of(expected));
    ASSERT_EQ(actual.races.size(), expected.races.size());
    for (std::size_t i = 0; i < actual.races.size(); ++i) {
        EXPECT_EQ(actual.races[i].sites_a, expected.races[i].sites_a);
        EXPECT_EQ(actual.races[i].sites_b, expected.races[i].sites_b);
    }
}

TEST(RoundTrip, StoresTheTraceAndGraphTables) {
    TempDir dir;
    const std::string path = dir.file("r.db");
    const test::HandMadeRun h = test::hand_made_run();
    RunInfo info;
    info.program = "/usr/bin/app";
    info.arguments = {"app", "--threads", "4", "quote\"d"};
    info.host = "builder";
    info.started_at = "2026-11-22T10:00:00Z";
    write_run(path, h.trace, h.result, info);
    EXPECT_EQ(count(path, "SELECT count(*) FROM events"), 6);
    EXPECT_EQ(count(path, "SELECT count(*) FROM events WHERE clock_start IS NOT NULL"), 6);
    // Version 3: the child was created by the main thread's fork (event 0); the race events of
    // the main thread hold the mutex acquired by its event 1; race 1 (a later partition) is
    // ordered after race 0: thread 1's event 2 precedes its event 3 in process order, thread 2's
    // event 0 reaches it through the event-control edge to thread 1's event 2.
    EXPECT_EQ(count(path, "SELECT creation_event FROM processes WHERE id = 1"), 0);
    EXPECT_EQ(count(path, "SELECT count(*) FROM processes WHERE id = 0 AND creation_event IS NULL"),
              1);
    EXPECT_EQ(count(path, "SELECT count(*) FROM held_locks WHERE process = 0 AND event_index = 2"
                          " AND object = 0 AND acquire_index = 1"),
              1);
    EXPECT_EQ(count(path, "SELECT count(*) FROM held_locks"), 2); // events 2 and 3 (the unlock)
    EXPECT_EQ(count(path, "SELECT after_race_id FROM race_orderings WHERE race_id = 1"), 0);
    // Race 2 shares event 0/2 with race 0, which reaches itself in Ê* (an empty path).
    EXPECT_EQ(count(path, "SELECT after_race_id FROM race_orderings WHERE race_id = 2"), 0);
    EXPECT_EQ(count(path, "SELECT count(*) FROM race_orderings"), 2);
    EXPECT_EQ(count(path, "SELECT (SELECT group_concat(process || '/' || event_index || ' ' ||"
                          " via, ', ') FROM (SELECT * FROM race_ordering_steps WHERE race_id = 2"
                          " ORDER BY ordinal)) = '0/2 start, 1/0 start, 0/2 event-control'"),
              1);
    EXPECT_EQ(count(path, "SELECT (SELECT group_concat(process || '/' || event_index || ' ' ||"
                          " via, ', ') FROM (SELECT * FROM race_ordering_steps WHERE race_id = 1"
                          " ORDER BY ordinal)) = '0/2 start, 0/3 program-order, 1/0 start,"
                          " 0/2 event-control, 0/3 program-order'"),
              1);
    EXPECT_EQ(count(path, "SELECT count(*) FROM sync_objects WHERE label = 'mutex@0x1000'"), 1);
    EXPECT_EQ(
        count(path,
              "SELECT count(*) FROM events WHERE kind = 'sem-post' AND object = 1 AND counter = 3"),
        1);
    EXPECT_EQ(
        count(path, "SELECT count(*) FROM access_sites WHERE process = 1 AND event_index = 0"), 3);
    EXPECT_EQ(
        count(path, "SELECT count(*) FROM access_sites WHERE kind = 'atomic-write' AND flags = 6"),
        1);
    EXPECT_EQ(count(path, "SELECT count(*) FROM site_ranges"), 5);
    EXPECT_EQ(count(path, "SELECT count(*) FROM contexts WHERE parent = 0 AND location = 0"), 1);
    EXPECT_EQ(
        count(path,
              "SELECT count(*) FROM sync_objects WHERE kind = 'semaphore' AND initial_value = 2"),
        1);
    EXPECT_EQ(
        count(path,
              "SELECT count(*) FROM graph_edges WHERE kind = 'shared-data' AND transitive = 1"),
        1);
    EXPECT_EQ(count(path, "SELECT count(*) FROM graph_edges WHERE kind = 'event-control'"), 1);
    EXPECT_EQ(
        count(path, "SELECT count(*) FROM partition_edges WHERE partition_id = 0 AND after_id = 1"),
        1);
    EXPECT_EQ(count(path, "SELECT race_count FROM tangles WHERE id = 0"), 2);
    EXPECT_EQ(count(path, "SELECT feasible_count FROM tangles WHERE id = 0"), 1);
    EXPECT_EQ(count(path, "SELECT count(*) FROM run_stages"), 2);
    EXPECT_EQ(count(path, "SELECT count(*) FROM runs WHERE arguments = "
                          "'[\"app\",\"--threads\",\"4\",\"quote\\\"d\"]'"),
              1);
    EXPECT_EQ(
        count(path,
              "SELECT count(*) FROM runs WHERE program = '/usr/bin/app' AND host = 'builder'"),
        1);
    EXPECT_EQ(count(path, "SELECT count(*) FROM first_races"), 1);
    // race_sites agrees with group_race_sites.
    const ReportModel model = make_report_model(h.trace, h.result);
    const auto sites = group_race_sites(model);
    EXPECT_EQ(count(path, "SELECT count(*) FROM race_sites"),
              static_cast<std::int64_t>(sites.size()));
    for (const RaceSite& s : sites) {
        const std::string where = " FROM race_sites WHERE site_key = '" + s.key + "'";
        if (s.key.find('\'') != std::string::npos) continue;
        EXPECT_EQ(count(path, "SELECT races" + where), static_cast<std::int64_t>(s.races.size()))
            << s.key;
        EXPECT_EQ(count(path, "SELECT feasible" + where), s.feasible) << s.key;
        EXPECT_EQ(count(path, "SELECT in_first_partition" + where), s.in_first_partition ? 1 : 0)
            << s.key;
    }
}

// The GUI's read functions give what read_report (and make_report_model) give for one event or
// race.
TEST(RoundTrip, EventFactsAndOrderingsReadOneByOne) {
    TempDir dir;
    const std::string path = dir.file("r.db");
    const test::HandMadeRun h = test::hand_made_run();
    const std::int64_t run = write_run(path, h.trace, h.result);
    const ReportModel model = make_report_model(h.trace, h.result);
    const ResultsDatabase db(path);
    const ReportEvent a = db.event_facts(run, 0, 2);
    EXPECT_EQ(a, model.races[0].a);
    ASSERT_EQ(a.locks.size(), 1u);
    EXPECT_EQ(a.locks[0].name, "mutex@0x1000");
    EXPECT_EQ(a.locks[0].acquired.headline.line, 20u); // the acquire's location (main.c:20)
    const ReportEvent b = db.event_facts(run, 1, 0);
    EXPECT_EQ(b, model.races[0].b);
    EXPECT_EQ(b.parent, "thread 1");
    EXPECT_EQ(b.created.headline.file, "/src/app/main.c"); // the fork's location
    EXPECT_EQ(b.created.headline.line, 10u);
    EXPECT_FALSE(db.ordered_after(run, 0).has_value()); // a first partition's race
    const auto after = db.ordered_after(run, 1);
    ASSERT_TRUE(after.has_value());
    EXPECT_EQ(*after, *model.races[1].ordered_after);
    EXPECT_EQ(after->race, 0u);
    EXPECT_THROW(db.event_facts(run, 7, 0), InputError);
    EXPECT_THROW(db.ordered_after(run + 1, 1), InputError);
}

TEST(RoundTrip, SampleInBothOrderings) {
    TempDir dir;
    const std::string path = dir.file("r.db");
    const Trace trace = load_trace(test::sample_trace("figure-2-1.std"));
    std::vector<std::string> expected;
    for (Ordering o : {Ordering::Approximate, Ordering::Complete}) {
        AnalysisOptions options;
        options.ordering = o;
        const AnalysisResult result = analyze(trace, options);
        write_run(path, trace, result);
        expected.push_back(test::json_of(make_report_model(trace, result)));
    }
    const ResultsDatabase db(path);
    EXPECT_EQ(test::json_of(db.read_report(1)), expected[0]);
    EXPECT_EQ(test::json_of(db.read_report(2)), expected[1]);
    EXPECT_NE(expected[0], expected[1]);
}

TEST(RoundTrip, RandomTracesAppendedToOneDatabase) {
    TempDir dir;
    const std::string path = dir.file("r.db");
    std::vector<std::string> expected;
    std::vector<std::vector<std::string>> keys;
    for (std::uint64_t seed = 1; seed <= 15; ++seed) {
        test::write_random_std(dir.file("t.std"), seed, 200 + 40 * seed);
        const Trace trace = load_trace(dir.file("t.std"));
        const AnalysisResult result = analyze(trace);
        EXPECT_EQ(write_run(path, trace, result), static_cast<std::int64_t>(seed));
        const ReportModel model = make_report_model(trace, result);
        expected.push_back(test::json_of(model));
        keys.push_back(model_site_keys(model));
    }
    const ResultsDatabase db(path);
    std::set<std::string> all;
    for (std::int64_t id = 1; id <= 15; ++id) {
        EXPECT_EQ(test::json_of(db.read_report(id)), expected[static_cast<std::size_t>(id - 1)])
            << "run " << id;
        EXPECT_EQ(db.site_keys(id), keys[static_cast<std::size_t>(id - 1)]) << "run " << id;
        all.insert(keys[static_cast<std::size_t>(id - 1)].begin(),
                   keys[static_cast<std::size_t>(id - 1)].end());
    }
    const auto any_run = db.site_keys();
    EXPECT_EQ(std::set<std::string>(any_run.begin(), any_run.end()), all);
}

TEST(RoundTrip, LargeRunRebuildsTheIndexesSmallRunUpdatesThem) {
    TempDir dir;
    const std::string path = dir.file("r.db");
    // A run large against the database: indexes dropped, rows inserted, indexes rebuilt.
    test::write_random_std(dir.file("big.std"), 9, 30000);
    const Trace big = load_trace(dir.file("big.std"));
    const AnalysisResult big_result = analyze(big);
    ASSERT_GE(big.event_count() + big.sites.size() + big.ranges.size() +
                  4 * big_result.races.size(),
              10000u);
    write_run(path, big, big_result);
    // A small one: indexes updated in place.
    const test::HandMadeRun h = test::hand_made_run();
    write_run(path, h.trace, h.result);
    EXPECT_EQ(
        count(path, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"),
        7);
    const ResultsDatabase db(path);
    EXPECT_EQ(test::json_of(db.read_report(1)), test::json_of(make_report_model(big, big_result)));
    EXPECT_EQ(test::json_of(db.read_report(2)),
              test::json_of(make_report_model(h.trace, h.result)));
    // The partition index answers per-partition queries of both runs.
    for (const ReportPartition& p : db.read_report(1).partitions)
        EXPECT_EQ(count(path, "SELECT count(*) FROM races INDEXED BY races_by_partition WHERE "
                              "run_id = 1 AND partition = " +
                                  std::to_string(p.id)),
                  static_cast<std::int64_t>(p.races.size()));
}

TEST(RoundTrip, SourceTextIsStoredAndOutlivesTheFile) {
    TempDir dir;
    const std::string source = dir.file("queue.c");
    const std::string text =
        "int head;\nvoid push(void) {\n    head++;  /* <race> & \"more\" */\n}\n";
    test::write_file(source, text);
    test::HandMadeRun h = test::hand_made_run();
    h.trace.locations[0].file = source;    // absolute
    h.trace.locations[1].file = "queue.c"; // relative to the trace's directory
    h.trace.path = dir.file("app.trace");
    const std::string path = dir.file("r.db");
    DatabaseWriteOptions options;
    options.source_directories = {dir.path()}; // the root relative names are looked up in
    const std::int64_t first = write_run(path, h.trace, h.result, {}, options);
    const std::int64_t second = write_run(path, h.trace, h.result, {}, options);
    std::filesystem::remove(source);
    const ResultsDatabase db(path);
    EXPECT_EQ(db.source_text(first, source), text);
    EXPECT_EQ(db.source_text(first, "queue.c"), text);
    EXPECT_EQ(db.source_text(second, source), text);
    EXPECT_EQ(db.source_text(first, "/src/app/main.c"), std::nullopt); // did not exist
    EXPECT_EQ(count(path, "SELECT count(*) FROM source_texts"), 1) << "texts are deduplicated";
    EXPECT_EQ(count(path, "SELECT count(*) FROM source_files WHERE text_id IS NULL"), 6)
        << "3 missing files (/src/app/main.c, /src/app/queue.c, the weird one) x 2 runs";
}

// Issue 13: a location in an untrusted trace must not publish an arbitrary file. Text traces
// store sources only under --source-root; links out of a root, FIFOs and files outside are
// never read (a FIFO would also hang the writer); recorded traces store the regular files
// their debug information names.
TEST(RoundTrip, OnlyRegularSourcesUnderTheRootsAreStored) {
    TempDir root, outside;
    test::write_file(root.file("ok.c"), "int ok;\n");
    test::write_file(outside.file("secret.c"), "password\n");
    std::filesystem::create_symlink(outside.file("secret.c"), root.file("link.c"));
    ASSERT_EQ(mkfifo(root.file("fifo.c").c_str(), 0600), 0);
    const auto stored = [](const std::string& db, std::int64_t run, const std::string& f) {
        return ResultsDatabase(db).source_text(run, f).has_value();
    };
    test::HandMadeRun h = test::hand_made_run();
    h.trace.locations[0].file = "/etc/passwd";
    h.trace.locations[1].file = "ok.c";
    h.trace.locations[3].file = "link.c";
    h.trace.locations[4].file = root.file("fifo.c");
    h.trace.locations[5].file = outside.file("secret.c");
    h.trace.locations[6].file = root.file("ok.c");
    const std::string db = root.file("r.db");

    h.trace.format = "std"; // a text trace: nothing without a root
    const std::int64_t none = write_run(db, h.trace, h.result);
    EXPECT_EQ(count(db, "SELECT count(*) FROM source_files WHERE run_id = " + std::to_string(none) +
                            " AND text_id IS NOT NULL"),
              0);
    DatabaseWriteOptions options;
    options.source_directories = {root.path()};
    const std::int64_t rooted = write_run(db, h.trace, h.result, {}, options);
    EXPECT_TRUE(stored(db, rooted, "ok.c"));
    EXPECT_TRUE(stored(db, rooted, root.file("ok.c")));
    EXPECT_FALSE(stored(db, rooted, "/etc/passwd"));
    EXPECT_FALSE(stored(db, rooted, "link.c")) << "a link out of the root";
    EXPECT_FALSE(stored(db, rooted, root.file("fifo.c")));
    EXPECT_FALSE(stored(db, rooted, outside.file("secret.c")));

    h.trace.format = "firstrace"; // recorded: the files the debug information names
    const std::int64_t recorded = write_run(db, h.trace, h.result);
    EXPECT_TRUE(stored(db, recorded, outside.file("secret.c")));
    EXPECT_TRUE(stored(db, recorded, root.file("ok.c")));
    EXPECT_FALSE(stored(db, recorded, "ok.c")) << "relative names only under a root";
    EXPECT_FALSE(stored(db, recorded, root.file("fifo.c")));
    const std::int64_t recorded_rooted = write_run(db, h.trace, h.result, {}, options);
    EXPECT_FALSE(stored(db, recorded_rooted, outside.file("secret.c")));
    EXPECT_FALSE(stored(db, recorded_rooted, "/etc/passwd"));

    options.source_directories = {root.file("missing")};
    EXPECT_THROW(write_run(db, h.trace, h.result, {}, options), InputError);
}

TEST(RoundTrip, RunInfoComesFromTheTraceMetadata) {
    TempDir dir;
    std::filesystem::create_directory(dir.file("app.trace"));
    test::write_file(dir.file("app.trace/metadata"),
                     "firstrace-trace 1\ntool-version 0.1.0\nprogram /opt/my%20app/bin/app\n"
                     "arg ./app\narg --threads%3D4\narg 100%25\npid 42\n"
                     "start-time 1763809400.123456789\nhost builder-7\n");
    test::HandMadeRun h = test::hand_made_run();
    h.trace.path = dir.file("app.trace");
    h.trace.metadata = read_trace_metadata(h.trace.path); // what the trace reader does
    const RunInfo info = run_info_for(h.trace);
    EXPECT_EQ(info.program, "/opt/my app/bin/app");
    EXPECT_EQ(info.arguments, (std::vector<std::string>{"./app", "--threads=4", "100%"}));
    EXPECT_EQ(info.started_at, "2025-11-22T11:03:20Z");
    EXPECT_EQ(info.host, "builder-7");
    const std::string path = dir.file("r.db");
    write_run(path, h.trace, h.result, info);
    const RunSummary run = ResultsDatabase(path).run(1);
    EXPECT_EQ(run.program, "/opt/my app/bin/app");
    EXPECT_EQ(run.started_at, "2025-11-22T11:03:20Z");
    EXPECT_EQ(
        count(path,
              "SELECT count(*) FROM runs WHERE arguments = '[\"./app\",\"--threads=4\",\"100%\"]'"),
        1);
    // STD traces (files) carry none of it.
    h.trace.path = test::sample_trace("figure-2-1.std");
    h.trace.metadata.reset();
    const RunInfo none = run_info_for(h.trace);
    EXPECT_FALSE(none.program || none.host || none.started_at);
    EXPECT_TRUE(none.arguments.empty());
}

TEST(RoundTrip, EmptyResultRoundTrips) {
    TempDir dir;
    const std::string path = dir.file("r.db");
    test::HandMadeRun h = test::hand_made_run();
    h.result.races.clear();
    h.result.partitions.clear();
    h.result.counts.apparent = 0;
    const std::int64_t id = write_run(path, h.trace, h.result);
    EXPECT_EQ(test::json_of(ResultsDatabase(path).read_report(id)),
              test::json_of(make_report_model(h.trace, h.result)));
}

TEST(RoundTrip, UnknownRunIsAnError) {
    TempDir dir;
    const std::string path = dir.file("r.db");
    const test::HandMadeRun h = test::hand_made_run();
    write_run(path, h.trace, h.result);
    const ResultsDatabase db(path);
    EXPECT_THROW(db.read_report(7), InputError);
    EXPECT_THROW(db.run(0), InputError);
}

} // namespace
} // namespace firstrace
