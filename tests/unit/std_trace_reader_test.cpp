#include <gtest/gtest.h>

#include "firstrace/errors.hpp"
#include "test_support.hpp"

namespace firstrace {
namespace {

TEST(StdTraceReader, GroupsRunsOfAccessesIntoComputationEvents) {
    const Trace t = test::parse_std("T0|w(x)|a.c:1\n"
                                    "T0|r(y)|a.c:2\n"
                                    "T0|w(x)|a.c:1\n"
                                    "T0|acq(L)|a.c:3\n"
                                    "T0|r(x)|a.c:4\n"
                                    "T0|rel(L)|a.c:5\n");
    ASSERT_EQ(t.processes.size(), 1u);
    const auto& ev = t.processes[0].events;
    ASSERT_EQ(ev.size(), 4u);
    EXPECT_EQ(ev[0].kind, EventKind::Computation);
    EXPECT_EQ(ev[0].site_count, 2u); // (a.c:1, write) and (a.c:2, read)
    EXPECT_EQ(ev[0].clock_start, 1u);
    EXPECT_EQ(ev[0].clock_finish, 3u);
    EXPECT_EQ(ev[1].kind, EventKind::Acquire);
    EXPECT_EQ(ev[1].counter, 0u);
    EXPECT_EQ(ev[2].kind, EventKind::Computation);
    EXPECT_EQ(ev[3].kind, EventKind::Release);
    EXPECT_EQ(ev[3].counter, 1u);
    EXPECT_TRUE(t.has_clock);
    const SourceLocation& loc = t.locations[t.sites[ev[0].first_site].location];
    EXPECT_EQ(loc.file, "a.c");
    EXPECT_EQ(loc.line, 1u);
}

TEST(StdTraceReader, MergesVariablesOfOneSiteIntoIntervals) {
    const Trace t = test::parse_std("T0|w(V0)|s:1\nT0|w(V1)|s:1\nT0|w(V2)|s:1\nT0|w(V0)|s:1\n");
    ASSERT_EQ(t.processes[0].events.size(), 1u);
    const AccessSite& site = t.sites[0];
    ASSERT_EQ(site.range_count, 1u);
    EXPECT_EQ(t.ranges[site.first_range], (Interval{0, 3}));
    EXPECT_EQ(t.describe(t.ranges[site.first_range]), "V0,V1,V2");
}

TEST(StdTraceReader, AcceptsRapidNumericLocationsCommentsAndBlankLines) {
    const Trace t = test::parse_std(
        "# comment\n\nT0|w(V1)|17\nT0|begin(x)|18\nT0|end(x)|19\n  T1 | r(V1) | 20  \n");
    EXPECT_EQ(t.processes.size(), 2u);
    EXPECT_EQ(t.locations[0].file, "17");
    EXPECT_EQ(t.locations[0].line, 0u);
}

TEST(StdTraceReader, ReentrantAcquireNests) {
    EXPECT_NO_THROW(
        test::parse_std("T0|acq(L)|1\nT0|acq(L)|2\nT0|rel(L)|3\nT0|rel(L)|4\nT1|acq(L)|5\n"));
}

TEST(StdTraceReader, EmptyTraceIsValid) {
    const Trace t = test::parse_std("");
    EXPECT_TRUE(t.processes.empty());
}

// Lines end in LF, CR LF or a lone CR: the three spellings of one trace read alike, and a
// CR-only file is not one long line (issue 13).
TEST(StdTraceReader, CrLfAndCrOnlyLineEndsReadAlike) {
    const std::string lf = "T0|w(x)|a.c:1\nT1|w(x)|a.c:2\nT1|r(y)|a.c:3\n";
    std::string crlf, cr;
    for (const char c : lf) {
        crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
        cr += c == '\n' ? '\r' : c;
    }
    const Trace a = test::parse_std(lf), b = test::parse_std(crlf), c = test::parse_std(cr);
    for (const Trace* t : {&b, &c}) {
        ASSERT_EQ(t->processes.size(), 2u);
        ASSERT_EQ(t->locations.size(), a.locations.size());
        for (std::size_t i = 0; i < a.locations.size(); ++i) {
            EXPECT_EQ(t->locations[i].file, a.locations[i].file);
            EXPECT_EQ(t->locations[i].line, a.locations[i].line);
        }
    }
    // Errors name the right line in a CR-only file.
    try {
        test::parse_std("T0|w(x)|a.c:1\rT0|bogus(x)|a.c:2\r");
        FAIL() << "expected an InputError";
    } catch (const InputError& e) {
        EXPECT_EQ(e.line(), 2u) << e.what();
    }
}

struct BadInput {
    const char* name;
    std::string text;
    std::uint64_t line;
    const char* message;
};

class StdTraceReaderErrors : public ::testing::TestWithParam<BadInput> {};

TEST_P(StdTraceReaderErrors, NamesFileLineAndProblem) {
    const BadInput& bad = GetParam();
    test::TempFile file(bad.text);
    try {
        read_std_trace(file.path());
        FAIL() << "accepted bad input";
    } catch (const InputError& e) {
        EXPECT_EQ(e.file(), file.path());
        EXPECT_EQ(e.line(), bad.line);
        EXPECT_NE(std::string(e.what()).find(bad.message), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(file.path() + ":" + std::to_string(bad.line)),
                  std::string::npos);
    }
}

INSTANTIATE_TEST_SUITE_P(
    Cases, StdTraceReaderErrors,
    ::testing::Values(
        BadInput{"UnknownOp", "T0|w(x)|1\nT0|frob(x)|2\n", 2, "unknown operation 'frob'"},
        BadInput{"NoBar", "T0 w(x)\n", 1, "malformed line"},
        BadInput{"NoParens", "T0|w|1\n", 1, "malformed operation"},
        BadInput{"EmptyArgument", "T0|w()|1\n", 1, "empty argument"},
        BadInput{"EmptyThread", "|w(x)|1\n", 1, "empty thread name"},
        BadInput{"ReleaseNotHeld", "T0|rel(L)|1\n", 1, "does not hold it"},
        BadInput{"ReleaseHeldByOther", "T0|acq(L)|1\nT1|rel(L)|2\n", 2, "does not hold it"},
        BadInput{"AcquireHeldByOther", "T0|acq(L)|1\nT1|acq(L)|2\n", 2, "while thread T0 holds it"},
        BadInput{"JoinUnknown", "T0|join(T9)|1\n", 1, "join(T9): no such thread"},
        BadInput{"JoinSelf", "T0|join(T0)|1\n", 1, "joins itself"},
        BadInput{"ForkSelf", "T0|fork(T0)|1\n", 1, "forks itself"},
        BadInput{"ForkRunning", "T1|w(x)|1\nT0|fork(T1)|2\n", 2, "already ran"},
        BadInput{"ForkTwice", "T0|fork(T1)|1\nT0|fork(T1)|2\n", 2, "already forked"},
        BadInput{"EventAfterJoin", "T0|fork(T1)|1\nT1|w(x)|2\nT0|join(T1)|3\nT1|w(x)|4\n", 4,
                 "after it was joined at line 3"},
        BadInput{"BinaryData", std::string("T0|w(x)|1\nT0|w(\0x)|2\n", 21), 2, "binary data"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(StdTraceReader, MissingFileIsAnInputError) {
    EXPECT_THROW(read_std_trace("/nonexistent/trace.std"), InputError);
}

} // namespace
} // namespace firstrace

namespace firstrace {
namespace {

TEST(TraceDescribe, NamesByteRangesByDataSymbols) {
    Trace t;
    t.data_symbols = {{0x1000, 0x1008, "counter"}, {0x2000, 0x2100, "array"}};
    EXPECT_EQ(t.describe({0x1000, 0x1008}), "counter");
    EXPECT_EQ(t.describe({0x1004, 0x1008}), "counter+4 (4 bytes)");
    EXPECT_EQ(t.describe({0x2000, 0x2001}), "array (1 byte)");
    EXPECT_EQ(t.describe({0x3000, 0x3008}), "0x3000+8");
    EXPECT_EQ(t.describe({0x0fff, 0x1000}), "0xfff+1");
}

} // namespace
} // namespace firstrace
