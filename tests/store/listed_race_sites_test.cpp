// listed_race_sites(trace, result), the integer-keyed grouping `analyze` uses for its text
// report, against the reference definition: group_race_sites of the listed races of the
// ReportModel (listed_race_sites(model)), field by field, on the hand-made run (stacks, heap,
// atomics, unknown sites), random STD traces (also with OS threads, private storage, atomics and
// sites whose ranges overlap partially) and small traces of the stress shapes. The model groups
// race by race and site pair by site pair (make_report_model's conflicting_site_pairs): the
// brute-force reference of the per-event folding in report_site_rank_folder.hpp.
#include <algorithm>
#include <random>
#include <sstream>

#include "firstrace/triage_report.hpp"
#include "store_test_support.hpp"
#include "stress/stress_shapes.hpp"
#include "test_support.hpp"

namespace firstrace {
namespace {

// x from listed_race_sites(trace, result), y from the model.
void expect_same_site(const RaceSite& x, const RaceSite& y) {
    EXPECT_EQ(x.key, y.key);
    for (auto [a, b] : {std::pair{&x.first, &y.first}, {&x.second, &y.second}}) {
        EXPECT_EQ(a->file, b->file);
        EXPECT_EQ(a->line, b->line);
        EXPECT_EQ(a->column, b->column);
        EXPECT_EQ(a->function, b->function);
    }
    EXPECT_EQ(x.access_first, y.access_first);
    EXPECT_EQ(x.access_second, y.access_second);
    EXPECT_EQ(x.thread_first, y.thread_first);
    EXPECT_EQ(x.thread_second, y.thread_second);
    EXPECT_EQ(x.example_race, y.example_race);
    EXPECT_EQ(x.example_status, y.example_status);
    ASSERT_FALSE(y.races.empty());
    EXPECT_EQ(x.races, std::vector<std::uint32_t>{y.races.front()}) << "the smallest race";
    EXPECT_EQ(std::size_t(x.feasible) + x.feasible_ec + x.unvalidated, y.races.size());
    EXPECT_EQ(x.threads, y.threads);
    EXPECT_EQ(x.variables, y.variables);
    EXPECT_EQ(x.runs, y.runs);
    EXPECT_EQ(x.feasible, y.feasible);
    EXPECT_EQ(x.feasible_ec, y.feasible_ec);
    EXPECT_EQ(x.unvalidated, y.unvalidated);
    EXPECT_EQ(x.actual, y.actual);
    EXPECT_EQ(x.in_first_partition, y.in_first_partition);
    EXPECT_EQ(x.first_partition, y.first_partition);
}

void expect_same_listing(const Trace& trace, const AnalysisResult& result) {
    const ListedRaceSites fast = listed_race_sites(trace, result);
    const ListedRaceSites reference = listed_race_sites(make_report_model(trace, result));
    EXPECT_EQ(fast.later_unvalidated, reference.later_unvalidated);
    EXPECT_EQ(fast.later_partitions, reference.later_partitions);
    ASSERT_EQ(fast.sites.size(), reference.sites.size());
    for (std::size_t k = 0; k < fast.sites.size(); ++k) {
        SCOPED_TRACE("site " + std::to_string(k));
        expect_same_site(fast.sites[k], reference.sites[k]);
    }
    // The text report prints the same from either.
    std::ostringstream a, b;
    write_text_report(a, make_report_header(trace, result), fast);
    write_text_report(b, make_report_model(trace, result));
    EXPECT_EQ(a.str(), b.str());
    // With a limit: the first sites in the text report's order (first partitions first), the
    // others counted, and the same text when the report shows at most that many.
    std::vector<RaceSite> in_text_order = reference.sites;
    std::stable_partition(in_text_order.begin(), in_text_order.end(),
                          [](const RaceSite& site) { return site.in_first_partition; });
    for (std::size_t limit : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{20}}) {
        SCOPED_TRACE("limit " + std::to_string(limit));
        const ListedRaceSites limited = listed_race_sites(trace, result, limit);
        const std::size_t listed = std::min(limit, in_text_order.size());
        ASSERT_EQ(limited.sites.size(), listed);
        EXPECT_EQ(limited.unlisted_sites, in_text_order.size() - listed);
        EXPECT_EQ(limited.unlisted_in_first,
                  std::size_t(std::count_if(
                      in_text_order.begin() + std::ptrdiff_t(listed), in_text_order.end(),
                      [](const RaceSite& site) { return site.in_first_partition; })));
        for (std::size_t k = 0; k < listed; ++k) {
            SCOPED_TRACE("site " + std::to_string(k));
            expect_same_site(limited.sites[k], in_text_order[k]);
        }
        TextReportOptions options;
        options.max_sites = limit;
        std::ostringstream c, d;
        write_text_report(c, make_report_header(trace, result), limited, options);
        write_text_report(d, make_report_model(trace, result), options);
        EXPECT_EQ(c.str(), d.str());
    }
}

Trace parse(const std::string& text) {
    test::TempDir dir;
    const std::string path = dir.file("trace.std");
    test::write_file(path, text);
    return read_std_trace(path);
}

TEST(ListedRaceSites, HandMadeRunMatchesTheModelGrouping) {
    const test::HandMadeRun h = test::hand_made_run();
    expect_same_listing(h.trace, h.result);
}

TEST(ListedRaceSites, RandomTracesMatchTheModelGrouping) {
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        bench::GeneratorParams p;
        p.seed = seed;
        p.threads = 2 + static_cast<std::uint32_t>(seed % 5);
        p.locks = static_cast<std::uint32_t>(seed % 3);
        p.variables = 1 + static_cast<std::uint32_t>(seed % 7);
        p.locations = 1 + static_cast<std::uint32_t>(seed % 9);
        p.operations = 200 + 10 * seed;
        std::ostringstream text;
        bench::StdTraceGenerator(p).write(text);
        const Trace trace = parse(text.str());
        expect_same_listing(trace, analyze(trace));
    }
}

// Processes on 1-3 OS threads (some on none) whose stacks and TLS cover some variables, a
// quarter of the sites atomic (test::add_os_threads_and_atomics): races between processes of one
// thread take the per-instance path, the others the folded one; and some sites' last range
// widened over the next variables, so that ranges overlap partially and a site spans several
// segments.
void decorate(Trace& trace, std::uint64_t seed) {
    test::add_os_threads_and_atomics(trace, seed);
    std::mt19937_64 rng(seed * 7919 + 3);
    auto pick = [&](std::uint64_t lo, std::uint64_t hi) {
        return std::uniform_int_distribution<std::uint64_t>(lo, hi)(rng);
    };
    std::uint64_t addresses = 1;
    for (const Interval& r : trace.ranges)
        addresses = std::max(addresses, r.hi);
    for (std::size_t s = 0; s < trace.sites.size(); ++s) {
        const AccessSite site = trace.sites[s];
        if (site.range_count > 0 && pick(0, 2) == 0) {
            const std::size_t r = site.first_range + site.range_count - 1;
            const Interval last = trace.ranges[r];
            trace.ranges.set(r, {last.lo, std::min(addresses, last.hi + pick(0, 2))});
        }
    }
}

TEST(ListedRaceSites, DecoratedRandomTracesMatchTheModelGrouping) {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        bench::GeneratorParams p;
        p.seed = 100 + seed;
        p.threads = 2 + static_cast<std::uint32_t>(seed % 4);
        p.locks = static_cast<std::uint32_t>(seed % 2);
        p.variables = 2 + static_cast<std::uint32_t>(seed % 6);
        p.locations = 1 + static_cast<std::uint32_t>(seed % 7);
        p.operations = 150 + 10 * seed;
        std::ostringstream text;
        bench::StdTraceGenerator(p).write(text);
        Trace trace = parse(text.str());
        decorate(trace, seed);
        expect_same_listing(trace, analyze(trace));
    }
}

TEST(ListedRaceSites, ManyLocationsMatchTheModelGrouping) {
    // More locations than the dense end-pair table takes: the hashed path.
    bench::GeneratorParams p;
    p.seed = 5;
    p.threads = 6;
    p.variables = 40;
    p.locations = 3000;
    p.operations = 6000;
    std::ostringstream text;
    bench::StdTraceGenerator(p).write(text);
    const Trace trace = parse(text.str());
    ASSERT_GT(trace.locations.size(), 2048u);
    expect_same_listing(trace, analyze(trace));
}

TEST(ListedRaceSites, StressShapesMatchTheModelGrouping) {
    for (const char* shape : {"hot", "vars", "waves", "low", "churn"}) {
        SCOPED_TRACE(shape);
        std::ostringstream text;
        bench::StressTraceWriter({shape, 4, 600, 3}).write(text);
        const Trace trace = parse(text.str());
        expect_same_listing(trace, analyze(trace));
    }
}

TEST(ListedRaceSites, RandomShapeWithLongEventsMatchesTheModelGrouping) {
    // The stress suite's random shape (1 000 variables and locations, 8 threads): threads that
    // wait for a lock make events of hundreds of nodes racing with events of a few, so the
    // folding's galloping merge skips far and a segment folds the nodes of many races.
    std::ostringstream text;
    bench::StressTraceWriter({"random", 8, 20000, 2}).write(text);
    const Trace trace = parse(text.str());
    expect_same_listing(trace, analyze(trace));
}

TEST(ListedRaceSites, NoRacesIsReportedAsSuch) {
    const Trace trace =
        parse("T0|fork(T1)|a.c:1\nT1|w(V)|a.c:2\nT0|join(T1)|a.c:3\nT0|w(V)|a.c:4\n");
    const AnalysisResult result = analyze(trace);
    ASSERT_TRUE(result.races.empty());
    std::ostringstream out;
    write_text_report(out, make_report_header(trace, result), listed_race_sites(trace, result));
    EXPECT_NE(out.str().find("No apparent data races."), std::string::npos);
}

} // namespace
} // namespace firstrace
