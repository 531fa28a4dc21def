#include <algorithm>
#include <filesystem>
#include <fstream>
// The `firstrace analyze` command line: output formats, exit codes, one-line errors.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>

#include "test_support.hpp"

namespace firstrace {
namespace {

struct CommandRun {
    int status = -1;
    std::string out; // stdout and stderr
};

CommandRun run(const std::string& args) {
    const std::string command = std::string(FIRSTRACE_BINARY) + " " + args + " 2>&1";
    CommandRun r;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) return r;
    std::array<char, 4096> buffer{};
    std::size_t n;
    while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
        r.out.append(buffer.data(), n);
    const int status = pclose(pipe);
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

const std::string kFigure = std::string(FIRSTRACE_SAMPLES) + "/traces/figure-2-1.std";

TEST(AnalyzeCommand, TextSummaryShowsCountsAndTheFirstPartition) {
    const CommandRun r = run("analyze --ordering approximate " + kFigure);
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("3 apparent races; 1 feasible, 1 feasible-ec, 1 unvalidated; 1 tangle; 3 "
                         "partitions, 1 first"),
              std::string::npos)
        << r.out;
    // the queue race of the first partition, by race site, then the validated later site
    EXPECT_NE(r.out.find("Race site 1: workq.c:20  <->  workq.c:23"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("first partition, e.g. race #0"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Memory: q.head"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Race site 3: workq.c:40  <->  workq.c:40"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("1 unvalidated race in 1 later partition"), std::string::npos) << r.out;
}

TEST(AnalyzeCommand, JsonHasTheFieldsOfDesignOutputs) {
    const CommandRun r = run("analyze --ordering approximate --format json " + kFigure);
    ASSERT_EQ(r.status, 0) << r.out;
    for (const char* field :
         {"\"races\":[", "\"partitions\":[", "\"id\":0",
          "\"a\":{\"thread\":\"T1\",\"index\":3,\"locks\":[],\"created_by\":\"T0\"",
          "\"status\":\"feasible-ec\"", "\"tangle\":0", "\"actual\":null", "\"partition\":0",
          "\"first\":true", "\"after\":[1]", "\"variables\":[\"q.head\"]",
          "\"file\":\"workq.c\",\"line\":20", "\"ordered_after\":null",
          // race 1 (partition 1) is ordered after race 0: T1's event 3 precedes its event 6
          // NOLINTNEXTLINE(bugprone-suspicious-missing-comma): one literal on two lines
          "\"ordered_after\":{\"race\":0,\"chain\":[{\"thread\":\"T1\",\"index\":3,\"via\":"
          "\"start\""})
        EXPECT_NE(r.out.find(field), std::string::npos) << field << "\n" << r.out;
}

TEST(AnalyzeCommand, CompleteOrderingIsTheDefaultForStd) {
    const CommandRun r = run("analyze --format json " + kFigure);
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("\"ordering\":\"complete\""), std::string::npos);
    EXPECT_NE(r.out.find("\"actual\":true"), std::string::npos);
}

TEST(AnalyzeCommand, EmptyTraceHasNoRaces) {
    test::TempFile empty("");
    const CommandRun r = run("analyze " + empty.path());
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("No apparent data races."), std::string::npos) << r.out;
}

TEST(AnalyzeCommand, BadInputIsOneLineWithFileAndLineAndExitCode2) {
    test::TempFile bad("T0|w(x)|1\nT0|rel(L)|2\n");
    const CommandRun r = run("analyze " + bad.path());
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
    EXPECT_NE(r.out.find(bad.path() + ":2: rel(L)"), std::string::npos) << r.out;
}

TEST(AnalyzeCommand, UsageErrorsExitWith2) {
    EXPECT_EQ(run("analyze").status, 2);
    EXPECT_EQ(run("analyze --format xml " + kFigure).status, 2);
    EXPECT_EQ(run("analyze --ordering sometimes " + kFigure).status, 2);
    EXPECT_EQ(run("analyze /nonexistent.std").status, 2);
    EXPECT_EQ(run("frobnicate").status, 2);
    const CommandRun help = run("analyze --help");
    EXPECT_EQ(help.status, 0);
    EXPECT_NE(help.out.find("--ordering"), std::string::npos);
}

TEST(AnalyzeCommand, NeverCrashesOnGarbage) {
    std::mt19937 rng(7);
    for (int i = 0; i < 20; ++i) {
        std::string junk;
        for (int k = 0; k < 200; ++k)
            junk += "T01|()wr,acqrelfokjn\n "[rng() % 22];
        test::TempFile file(junk);
        const CommandRun r = run("analyze " + file.path());
        EXPECT_TRUE(r.status == 0 || r.status == 2) << junk;
    }
}

TEST(AnalyzeCommand, EmptyOutputPathIsAnError) {
    const CommandRun r = run("analyze -q " + kFigure + " -o ''");
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_NE(r.out.find("--output names no file"), std::string::npos) << r.out;
}

// Issue 9: -o is the primary output (the report, in --format), --db the database; the old
// `-o DB` (a .db path, no --format) still stores the database.
TEST(AnalyzeCommand, OutputIsTheReportAndDbTheDatabase) {
    char dir[] = "/tmp/firstrace-cli-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    const std::string json = std::string(dir) + "/x.json", db = std::string(dir) + "/x.db";
    ASSERT_EQ(run("analyze -q --format json -o " + json + " " + kFigure).status, 0);
    const CommandRun stdout_json = run("analyze -q --format json " + kFigure);
    std::ifstream in(json);
    const std::string written((std::istreambuf_iterator<char>(in)), {});
    EXPECT_EQ(written, stdout_json.out) << "-o writes the JSON report, not a database";
    ASSERT_EQ(run("analyze -q --db " + db + " " + kFigure).status, 0);
    ASSERT_EQ(run("analyze -q -o " + db + " " + kFigure).status, 0);
    const CommandRun list = run("report --list-runs " + db);
    EXPECT_EQ(list.status, 0) << list.out;
    EXPECT_EQ(std::count(list.out.begin(), list.out.end(), '\n'), 2) << list.out;
    const CommandRun bad = run("analyze -q --format yaml " + kFigure);
    EXPECT_EQ(bad.status, 2);
    EXPECT_EQ(bad.out, "firstrace analyze: unknown --format 'yaml' (text or json)\n");
    const CommandRun escaped = run("analyze -q \"$(printf '/tmp/no\\nsuch\\033[31m')\"");
    EXPECT_EQ(escaped.status, 2);
    EXPECT_EQ(std::count(escaped.out.begin(), escaped.out.end(), '\n'), 1) << escaped.out;
    EXPECT_EQ(escaped.out.find('\x1b'), std::string::npos) << "no raw escape on the terminal";
    EXPECT_NE(escaped.out.find("/tmp/no\\x0asuch\\x1b[31m"), std::string::npos) << escaped.out;
    std::filesystem::remove_all(dir);
}

// Issue 13: escape sequences in names from the trace are shown as \xNN, never sent raw.
TEST(AnalyzeCommand, TerminalEscapesInNamesAreShownEscaped) {
    test::TempFile trace("T0|w(x)|a\x1b[2J.c:1\nT1|w(x)|b\x1b]0;title\x07.c:2\n");
    const CommandRun r = run("analyze -q --colour never " + trace.path());
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("a\\x1b[2J.c:1"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("b\\x1b]0;title\\x07.c:2"), std::string::npos) << r.out;
}

TEST(AnalyzeCommand, TransitiveBudgetIsAnOption) {
    // A transitive dependence T1 -> T2 -> T3 (T1 writes x, T2 reads x and writes y, T3 reads
    // y): with no budget the searches that need a step fall back (shared data from T1 and T3,
    // event control from T1; T2's bounds are its direct targets), with the default none does.
    const test::TempFile chain("T1|w(x)|c.c:1\nT2|r(x)|c.c:2\nT2|w(y)|c.c:3\nT3|r(y)|c.c:4\n");
    const CommandRun none =
        run("analyze -q -v --ordering approximate --transitive-budget 0 " + chain.path());
    ASSERT_EQ(none.status, 0) << none.out;
    EXPECT_NE(none.out.find("5 origins searched, 3 fell back"), std::string::npos) << none.out;
    const CommandRun normal = run("analyze -q -v --ordering approximate " + chain.path());
    EXPECT_NE(normal.out.find("5 origins searched, 0 fell back"), std::string::npos) << normal.out;
}

} // namespace
} // namespace firstrace
