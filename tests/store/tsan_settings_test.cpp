// The program's ThreadSanitizer settings: TSan's flag strings (tsan_flags.hpp), the metadata
// lines the tracer writes them in, the configuration analyze reads from them, and the races it
// hides (race_suppression.hpp) checked against `report --suppressions` on the report model.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <sstream>

#include "firstrace/analysis.hpp"
#include "firstrace/errors.hpp"
#include "firstrace/race_suppression.hpp"
#include "firstrace/report_model.hpp"
#include "firstrace/trace_metadata.hpp"
#include "firstrace/triage_report.hpp"
#include "firstrace/tsan_configuration.hpp"
#include "symbolizer_instrumented_module.hpp"
#include "test_support.hpp"
#include <firstrace/tsan_flags.hpp>

namespace firstrace {
namespace {

std::string flag(const char* options, const char* name) {
    const char* v = nullptr;
    std::size_t n = 0;
    if (!format::find_tsan_flag(options, name, &v, &n)) return "<none>";
    return std::string(v, n);
}

TEST(TsanFlags, ReadAsSanitizerCommonReadsThem) {
    EXPECT_EQ(flag("report_bugs=0", "report_bugs"), "0");
    EXPECT_EQ(flag("a=1:report_bugs=0,b=2", "report_bugs"), "0");
    EXPECT_EQ(flag(" \ta=1\nsuppressions=x.supp\r\n", "suppressions"), "x.supp");
    EXPECT_EQ(flag("suppressions='a b.supp':x=1", "suppressions"), "a b.supp");
    EXPECT_EQ(flag("suppressions=\"q:r\"", "suppressions"), "q:r");
    EXPECT_EQ(flag("report_bugs=0 report_bugs=1", "report_bugs"), "1") << "the last one wins";
    EXPECT_EQ(flag("my_report_bugs=0", "report_bugs"), "<none>");
    EXPECT_EQ(flag("report_bugs_x=0", "report_bugs"), "<none>");
    EXPECT_EQ(flag("report_bugs=", "report_bugs"), "");
    EXPECT_EQ(flag("report_bugs=0 oops report_bugs=1", "report_bugs"), "0")
        << "a name without '=' ends the parse (TSan dies there)";
    EXPECT_EQ(flag("suppressions='open", "suppressions"), "<none>");
    EXPECT_EQ(flag("", "report_bugs"), "<none>");
    EXPECT_EQ(flag(nullptr, "report_bugs"), "<none>");
    for (const char* yes : {"1", "yes", "true"})
        EXPECT_EQ(format::tsan_flag_bool(yes, std::strlen(yes)), 1) << yes;
    for (const char* no : {"0", "no", "false"})
        EXPECT_EQ(format::tsan_flag_bool(no, std::strlen(no)), 0) << no;
    EXPECT_EQ(format::tsan_flag_bool("2", 1), -1);
}

TraceMetadata metadata(const std::string& lines) {
    std::istringstream in("firstrace-trace 1\n" + lines);
    return parse_trace_metadata(in, "metadata");
}

TEST(TsanSettings, MetadataChunksAreConcatenated) {
    const TraceMetadata m = metadata("tsan-default-options report_bugs=1%20a=2\n"
                                     "tsan-options halt_on_error=0\n"
                                     "tsan-default-suppressions race:Thread1%0a\n"
                                     "tsan-default-suppressions race:Thread2\n"
                                     "tsan-suppressions-file /tmp/x%20y.supp\n"
                                     "tsan-suppressions race:^main$%0a\n");
    EXPECT_EQ(m.tsan_default_options, "report_bugs=1 a=2");
    EXPECT_EQ(m.tsan_options, "halt_on_error=0");
    EXPECT_EQ(m.tsan_default_suppressions, "race:Thread1\nrace:Thread2");
    EXPECT_EQ(m.tsan_suppressions_file, "/tmp/x y.supp");
    EXPECT_EQ(m.tsan_suppressions, "race:^main$\n");
    EXPECT_EQ(m.tsan_suppressions_errno, 0);
    const TraceMetadata none = metadata("pid 12\n");
    EXPECT_FALSE(none.tsan_options.has_value());
    EXPECT_FALSE(tsan_configuration(none).filters());
    const TraceMetadata failed = metadata("tsan-suppressions-error 2 /tmp/missing.supp\n");
    EXPECT_EQ(failed.tsan_suppressions_errno, 2);
    EXPECT_EQ(failed.tsan_suppressions_file, "/tmp/missing.supp");
    EXPECT_THROW(metadata("tsan-suppressions-error x\n"), InputError);
}

TEST(TsanSettings, ConfigurationAsTsanReadsIt) {
    TsanConfiguration c = tsan_configuration(metadata("tsan-default-options report_bugs=0\n"));
    EXPECT_FALSE(c.report_bugs);
    EXPECT_TRUE(c.filters());
    c = tsan_configuration(
        metadata("tsan-default-options report_bugs=0\ntsan-options report_bugs=1\n"));
    EXPECT_TRUE(c.report_bugs) << "TSAN_OPTIONS overrides __tsan_default_options()";
    EXPECT_FALSE(c.filters());
    c = tsan_configuration(metadata("tsan-suppressions-file s.supp\n"
                                    "tsan-suppressions race:a%0a#%20x%0athread:b%0a\n"
                                    "tsan-default-suppressions race_top:c\n"));
    ASSERT_EQ(c.suppressions.size(), 2u);
    EXPECT_EQ(c.suppressions[0].file(), "s.supp") << "the file's first, as TSan parses them";
    EXPECT_EQ(c.suppressions[0].rules().size(), 2u);
    EXPECT_EQ(c.suppressions[1].file(), "__tsan_default_suppressions()");
    EXPECT_TRUE(c.warnings.empty());
    c = tsan_configuration(metadata("tsan-suppressions-file s.supp\n"
                                    "tsan-suppressions bogus:a\n"
                                    "tsan-default-suppressions race:c\n"));
    ASSERT_EQ(c.suppressions.size(), 1u) << "the malformed file is not applied, the rest is";
    ASSERT_EQ(c.warnings.size(), 1u);
    EXPECT_NE(c.warnings[0].find("s.supp:1"), std::string::npos) << c.warnings[0];
    c = tsan_configuration(metadata("tsan-suppressions-error 2 /tmp/missing.supp\n"));
    ASSERT_EQ(c.warnings.size(), 1u);
    EXPECT_NE(c.warnings[0].find("/tmp/missing.supp"), std::string::npos);
    EXPECT_TRUE(c.suppressions.empty());
}

TEST(TsanSettings, InstrumentedModulesCallIntoTheRuntime) {
    EXPECT_FALSE(tsan_instrumented_module(FIRSTRACE_BINARY)) << "the analyzer is not instrumented";
    EXPECT_TRUE(tsan_instrumented_module("/nonexistent/lib.so")) << "unreadable: not ignored";
    const TsanConfiguration c =
        tsan_configuration(metadata("tsan-options ignore_noninstrumented_modules=1\n"
                                    "module 0 1000 2000 " FIRSTRACE_BINARY "\n"
                                    "module 0 3000 4000 /nonexistent/lib.so\n"));
    EXPECT_TRUE(c.ignore_noninstrumented_modules);
    ASSERT_EQ(c.suppressions.size(), 1u);
    ASSERT_EQ(c.suppressions[0].rules().size(), 1u);
    EXPECT_EQ(c.suppressions[0].rules()[0].type, "called_from_lib");
    EXPECT_EQ(c.suppressions[0].rules()[0].pattern, std::string("^") + FIRSTRACE_BINARY + "$");
}

// The event pairs of a model's races, with whether each race's partition is first.
std::map<std::pair<std::string, std::string>, bool> races_of(const ReportModel& m) {
    std::map<std::uint32_t, bool> first;
    for (const ReportPartition& p : m.partitions)
        first[p.id] = p.first;
    std::map<std::pair<std::string, std::string>, bool> out;
    for (const ReportRace& r : m.races)
        out[{r.a.thread + "#" + std::to_string(r.a.index),
             r.b.thread + "#" + std::to_string(r.b.index)}] = first.at(r.partition);
    return out;
}

// suppress_races on the analysis equals filter_report on the report model (the reference:
// `report --suppressions`), on random traces and random suppressions of variables (globals)
// and of locations: the same races, the same first partitions, counts that are the races'.
TEST(TsanSettings, HiddenRacesAreThoseReportHides) {
    std::size_t hid_some = 0, kept_some = 0;
    for (std::uint64_t seed = 1; seed <= 150; ++seed) {
        std::mt19937_64 rng(seed * 31 + 7);
        bench::GeneratorParams p;
        p.seed = seed;
        p.threads = 2 + seed % 4;
        p.locks = seed % 3;
        p.variables = 2 + seed % 5;
        p.operations = 30 + 10 * (seed % 9);
        p.locations = 2 + seed % 6;
        const Trace trace = test::parse_std(test::random_std(p));
        const AnalysisResult result = analyze(trace);
        std::string rules;
        for (std::uint32_t v = 0; v < p.variables; ++v)
            if (rng() % 3 == 0) rules += "race:^" + trace.variable_names.at(v) + "$\n";
        if (rng() % 4 == 0) rules += "race:f.c\n";
        if (rules.empty()) rules = "race_top:nothing\n";
        TsanConfiguration tsan;
        std::istringstream in(rules);
        tsan.suppressions.push_back(Suppressions::parse(in, "random"));

        RaceFilter filter;
        filter.suppressions = &tsan.suppressions[0];
        FilterStats stats;
        const ReportModel expected =
            filter_report(make_report_model(trace, result), filter, &stats);
        AnalysisResult hidden = result;
        const std::uint64_t suppressed = suppress_races(trace, hidden, tsan);
        const ReportModel got = make_report_model(trace, hidden);
        SCOPED_TRACE("seed " + std::to_string(seed) + ", rules " + rules);
        EXPECT_EQ(suppressed, stats.suppressed);
        EXPECT_EQ(races_of(got), races_of(expected));
        EXPECT_EQ(hidden.counts.apparent, hidden.races.size());
        EXPECT_EQ(hidden.counts.partitions, hidden.partitions.size());
        std::uint64_t first = 0;
        for (std::size_t i = 0; i < hidden.partitions.size(); ++i) {
            EXPECT_EQ(hidden.partitions[i].id, i);
            EXPECT_GT(hidden.partitions[i].race_count, 0u);
            // first partitions first; `after` points forward (a topological order)
            if (i > 0 && hidden.partitions[i].first) {
                EXPECT_TRUE(hidden.partitions[i - 1].first);
            }
            for (std::uint32_t next : hidden.partitions[i].after)
                EXPECT_GT(next, i);
            first += hidden.partitions[i].first ? 1 : 0;
        }
        EXPECT_EQ(hidden.counts.first_partitions, first);
        for (std::size_t i = 0; i < hidden.races.size(); ++i)
            EXPECT_EQ(hidden.races[i].id, i);
        hid_some += suppressed > 0 && !hidden.races.empty();
        kept_some += suppressed == 0 && !result.races.empty();
    }
    EXPECT_GT(hid_some, 20u) << "traces where some races are hidden and others stay";
    EXPECT_GT(kept_some, 5u);
}

TEST(TsanSettings, ReportBugsZeroHidesEveryRace) {
    bench::GeneratorParams p;
    p.seed = 3;
    const Trace trace = test::parse_std(test::random_std(p));
    AnalysisResult result = analyze(trace);
    ASSERT_GT(result.races.size(), 0u);
    TsanConfiguration tsan;
    tsan.report_bugs = false;
    const std::uint64_t races = result.races.size();
    EXPECT_EQ(suppress_races(trace, result, tsan), races);
    EXPECT_TRUE(result.races.empty());
    EXPECT_TRUE(result.partitions.empty());
    EXPECT_EQ(result.counts.apparent, 0u);
    EXPECT_EQ(result.counts.first_partitions, 0u);
    std::ostringstream summary;
    write_suppression_summary(summary, tsan, races);
    EXPECT_EQ(summary.str(), "report_bugs=0 (the program's ThreadSanitizer options): " +
                                 std::to_string(races) + " races not reported\n");
}

} // namespace
} // namespace firstrace
