// End to end through the `firstrace` binary: `analyze --db DB` then `report DB` prints what
// `analyze` printed; exit codes of --fail-on; errors are one line and exit code 2.
#include <sqlite3.h>
#include <sys/stat.h>

#include <filesystem>

#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>

#include "store_test_support.hpp"

namespace firstrace {
namespace {

using test::run_firstrace;
using test::TempDir;

const std::string kFigure = test::sample_trace("figure-2-1.std");

void expect_one_line_error(const test::CommandRun& r, const std::string& words) {
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find(words), std::string::npos) << r.err;
    ASSERT_FALSE(r.err.empty());
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not one line: " << r.err;
}

TEST(ReportCommand, ReportJsonEqualsAnalyzeJson) {
    TempDir dir;
    const std::string db = dir.file("r.db");
    for (const char* ordering : {"approximate", "complete"}) {
        const auto direct = run_firstrace(std::string("analyze --ordering ") + ordering +
                                          " --format json " + kFigure);
        ASSERT_EQ(direct.status, 0) << direct.err;
        const auto stored = run_firstrace(std::string("analyze -q --ordering ") + ordering +
                                          " --format json --db " + db + " " + kFigure);
        ASSERT_EQ(stored.status, 0) << stored.err;
        EXPECT_EQ(stored.out, direct.out) << "--db changes nothing on stdout";
        const auto report = run_firstrace("report --format json " + db);
        ASSERT_EQ(report.status, 0) << report.err;
        EXPECT_EQ(report.out, direct.out);
        EXPECT_TRUE(report.err.empty()) << report.err;
    }
    // Text as well, and earlier runs stay reachable.
    const auto text = run_firstrace("analyze --ordering approximate " + kFigure);
    const auto report = run_firstrace("report --run 1 " + db);
    ASSERT_EQ(report.status, 0) << report.err;
    EXPECT_EQ(report.out, text.out);
}

TEST(ReportCommand, RandomTracesRoundTripThroughTheBinary) {
    TempDir dir;
    const std::string db = dir.file("r.db");
    for (std::uint64_t seed = 21; seed <= 24; ++seed) {
        const std::string trace = dir.file("t" + std::to_string(seed) + ".std");
        test::write_random_std(trace, seed, 400);
        const auto direct = run_firstrace("analyze -q --format json --db " + db + " " + trace);
        ASSERT_EQ(direct.status, 0) << direct.err;
        const auto report = run_firstrace("report --format json " + db);
        ASSERT_EQ(report.status, 0) << report.err;
        EXPECT_EQ(report.out, direct.out) << "seed " << seed;
    }
    const auto runs = run_firstrace("report --list-runs " + db);
    ASSERT_EQ(runs.status, 0);
    EXPECT_EQ(std::count(runs.out.begin(), runs.out.end(), '\n'), 4);
    const auto all = run_firstrace("report --all-runs --format json " + db);
    ASSERT_EQ(all.status, 0) << all.err;
    std::istringstream in(all.out);
    boost::property_tree::ptree tree;
    ASSERT_NO_THROW(boost::property_tree::read_json(in, tree)) << all.out.substr(0, 400);
    EXPECT_EQ(tree.get_child("runs").size(), 4u);
}

TEST(ReportCommand, AllRunsInEveryFormat) {
    TempDir dir;
    const std::string db = dir.file("r.db");
    ASSERT_EQ(run_firstrace("analyze -q --ordering approximate --db " + db + " " + kFigure).status,
              0);
    ASSERT_EQ(run_firstrace("analyze -q --ordering complete --db " + db + " " + kFigure).status, 0);
    const auto text = run_firstrace("report --all-runs " + db);
    ASSERT_EQ(text.status, 0) << text.err;
    // The text report merges the runs' race sites: each site once, with the runs that found it.
    EXPECT_NE(text.out.find("== Run 1: "), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("== Run 2: "), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("found in 2 of 2 runs"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("(approximate ordering"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("(complete ordering"), std::string::npos) << text.out;
    const auto sarif = run_firstrace("report --all-runs --format sarif " + db);
    ASSERT_EQ(sarif.status, 0) << sarif.err;
    std::istringstream in(sarif.out);
    boost::property_tree::ptree tree;
    boost::property_tree::read_json(in, tree);
    EXPECT_EQ(tree.get_child("runs").size(), 2u);
    const auto md = run_firstrace("report --all-runs --format markdown " + db);
    EXPECT_NE(md.out.find("## Run 1: "), std::string::npos);
    EXPECT_NE(md.out.find("## Run 2: "), std::string::npos);
    const auto html = run_firstrace("report --all-runs --format html " + db);
    EXPECT_NE(html.out.find("<h2>Run 1: "), std::string::npos);
    EXPECT_NE(html.out.find("<h2>Run 2: "), std::string::npos);
    expect_one_line_error(run_firstrace("report --all-runs --run 1 " + db), "exclude each other");
}

TEST(ReportCommand, FailOnSetsTheExitCode) {
    TempDir dir;
    const std::string db = dir.file("r.db");
    ASSERT_EQ(run_firstrace("analyze -q --ordering approximate --db " + db + " " + kFigure).status,
              0);
    // Figure 2.1: 1 feasible, 1 feasible-ec, 1 unvalidated race; one first partition.
    EXPECT_EQ(run_firstrace("report " + db).status, 0);
    EXPECT_EQ(run_firstrace("report --fail-on none " + db).status, 0);
    EXPECT_EQ(run_firstrace("report --fail-on any " + db).status, 1);
    EXPECT_EQ(run_firstrace("report --fail-on feasible " + db).status, 1);
    EXPECT_EQ(run_firstrace("report --fail-on first " + db).status, 1);
    EXPECT_EQ(run_firstrace("report --status unvalidated --fail-on feasible " + db).status, 0);
    EXPECT_EQ(run_firstrace("report --status unvalidated --fail-on any " + db).status, 1);
    EXPECT_EQ(run_firstrace("report --file nosuchfile.c --fail-on any " + db).status, 0);
    EXPECT_EQ(run_firstrace("report --file workq.c --fail-on any " + db).status, 1);
    const auto bad = run_firstrace("report --fail-on sometimes " + db);
    expect_one_line_error(bad, "--fail-on");

    // A race-free run passes every policy.
    const std::string clean = dir.file("clean.std");
    test::write_file(
        clean,
        "T0|w(x)|a.c:1\nT0|fork(T1)|a.c:2\nT1|r(x)|a.c:3\nT0|join(T1)|a.c:4\nT0|w(x)|a.c:5\n");
    const std::string clean_db = dir.file("clean.db");
    ASSERT_EQ(run_firstrace("analyze -q --db " + clean_db + " " + clean).status, 0);
    EXPECT_EQ(run_firstrace("report --fail-on any " + clean_db).status, 0);
}

TEST(ReportCommand, BaselineAndSuppressions) {
    TempDir dir;
    const std::string db = dir.file("new.db");
    ASSERT_EQ(run_firstrace("analyze -q --db " + db + " " + kFigure).status, 0);
    // Against itself: nothing new.
    auto r = run_firstrace("report --baseline " + db + " --fail-on any " + db);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find("in the baseline"), std::string::npos) << r.err;
    // Against a race-free baseline: everything is new.
    const std::string clean = dir.file("clean.std");
    test::write_file(clean, "T0|w(x)|a.c:1\n");
    const std::string old_db = dir.file("old.db");
    ASSERT_EQ(run_firstrace("analyze -q --db " + old_db + " " + clean).status, 0);
    EXPECT_EQ(run_firstrace("report -q --baseline " + old_db + " --fail-on feasible " + db).status,
              1);

    const std::string supp = dir.file("supp.txt");
    test::write_file(supp, "# known races of the work queue\nrace:workq.c\n");
    r = run_firstrace("report --suppressions " + supp + " --fail-on any --verbose " + db);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.err.find(supp + ":2: race:workq.c"), std::string::npos) << r.err;
    test::write_file(supp, "race:main\nrace workq\n");
    r = run_firstrace("report --suppressions " + supp + " " + db);
    expect_one_line_error(r, supp + ":2: ");
}

// Issue 13: a suppressions file that is a directory was read as an empty list (every race
// reported, exit 0), a FIFO hung the report; both are refused with one line naming the file.
TEST(ReportCommand, SuppressionsFileMustBeARegularFile) {
    TempDir dir;
    const std::string db = dir.file("r.db");
    ASSERT_EQ(run_firstrace("analyze -q --db " + db + " " + kFigure).status, 0);
    const std::string directory = dir.file("supp.d");
    std::filesystem::create_directory(directory);
    expect_one_line_error(run_firstrace("report --suppressions " + directory + " " + db),
                          directory + ": is a directory");
    const std::string fifo = dir.file("supp.fifo");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    expect_one_line_error(run_firstrace("report --suppressions " + fifo + " " + db),
                          fifo + ": is not a regular file");
}

TEST(ReportCommand, FormatsAndOutputFile) {
    TempDir dir;
    const std::string db = dir.file("r.db");
    ASSERT_EQ(run_firstrace("analyze -q --db " + db + " " + kFigure).status, 0);
    const auto sarif = run_firstrace("report --format sarif " + db);
    ASSERT_EQ(sarif.status, 0) << sarif.err;
    std::istringstream in(sarif.out);
    boost::property_tree::ptree tree;
    ASSERT_NO_THROW(boost::property_tree::read_json(in, tree));
    EXPECT_EQ(tree.get<std::string>("version"), "2.1.0");
    EXPECT_GE(tree.get_child("runs").front().second.get_child("results").size(), 1u);
    const auto md = run_firstrace("report --format markdown " + db);
    ASSERT_EQ(md.status, 0) << md.err;
    EXPECT_NE(md.out.find("| Race site |"), std::string::npos);
    const std::string html = dir.file("report.html");
    const auto h = run_firstrace("report --format html -o " + html + " " + db);
    ASSERT_EQ(h.status, 0) << h.err;
    EXPECT_TRUE(h.out.empty());
    EXPECT_NE(test::read_file(html).find("workq.c:20"), std::string::npos);
    expect_one_line_error(run_firstrace("report --format pdf " + db), "--format");
    expect_one_line_error(run_firstrace("report --run 99 " + db), "no run 99");
}

TEST(ReportCommand, ForeignNewerAndCorruptDatabasesAreOneLineErrorsAndUnchanged) {
    TempDir dir;
    const std::string foreign = dir.file("foreign.db");
    {
        sqlite3* db = nullptr;
        sqlite3_open(foreign.c_str(), &db);
        sqlite3_exec(db, "CREATE TABLE t (x); INSERT INTO t VALUES (1);", nullptr, nullptr,
                     nullptr);
        sqlite3_close(db);
    }
    const std::string newer = dir.file("newer.db");
    ASSERT_EQ(run_firstrace("analyze -q --db " + newer + " " + kFigure).status, 0);
    {
        sqlite3* db = nullptr;
        sqlite3_open(newer.c_str(), &db);
        sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr);
        sqlite3_close(db);
    }
    const std::string text = dir.file("text.db");
    test::write_file(text, std::string(5000, 'x'));
    for (const auto& [path, words] :
         {std::pair{foreign, "not a firstrace results database"},
          std::pair{newer, "schema version 99 is newer than this firstrace supports"},
          std::pair{text, "not an SQLite database"}}) {
        const auto before = test::FileSnapshot::of(path);
        expect_one_line_error(run_firstrace("report " + path), path + ": " + words);
        expect_one_line_error(run_firstrace("analyze -q --db " + path + " " + kFigure),
                              path + ": " + words);
        expect_one_line_error(run_firstrace("report --baseline " + path + " " + newer),
                              path + ": " + words);
        EXPECT_TRUE(test::FileSnapshot::of(path) == before) << path;
    }
    expect_one_line_error(run_firstrace("report " + dir.file("missing.db")),
                          "missing.db: cannot open");
    EXPECT_FALSE(std::filesystem::exists(dir.file("missing.db")));
}

} // namespace
} // namespace firstrace
