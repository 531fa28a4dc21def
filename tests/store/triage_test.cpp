// Race sites, suppressions, filters, baselines, --fail-on, and the SARIF / Markdown / HTML writers.
#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>
#include <map>
#include <set>
#include <sstream>

#include "firstrace/errors.hpp"
#include "firstrace/race_accesses.hpp"
#include "firstrace/results_database.hpp"
#include "firstrace/triage_report.hpp"
#include "store_test_support.hpp"

namespace firstrace {
namespace {

namespace pt = boost::property_tree;

ReportModel hand_made_model() {
    const test::HandMadeRun h = test::hand_made_run();
    return make_report_model(h.trace, h.result);
}

std::vector<std::uint32_t> race_ids(const ReportModel& m) {
    std::vector<std::uint32_t> ids;
    for (const ReportRace& r : m.races)
        ids.push_back(r.id);
    return ids;
}

Suppressions parse(const std::string& text) {
    std::istringstream in(text);
    return Suppressions::parse(in, "supp.txt");
}

TEST(RaceSites, KeysAreUnorderedPairsOfFileAndLine) {
    const SiteEnd a{"b.c", 10, 3, "f"}, b{"a.c", 20, 0, "g"}, c{"a.c", 20, 9, "other"};
    EXPECT_EQ(site_key(a, b), "a.c:20 <-> b.c:10");
    EXPECT_EQ(site_key(b, a), site_key(a, b));
    EXPECT_EQ(site_key(c, a), site_key(a, b)) << "column and function take no part";
    EXPECT_EQ(site_key(SiteEnd{}, a), "<unknown> <-> b.c:10");
    EXPECT_EQ(site_key(SiteEnd{"x.c", 0, 0, ""}, SiteEnd{"x.c", 2, 0, ""}), "x.c <-> x.c:2");
    EXPECT_EQ(location_key("a.c", 9) < location_key("a.c", 10), false)
        << "keys are text; order is (file, line)";
    EXPECT_TRUE(site_end_less(SiteEnd{"a.c", 9, 0, ""}, SiteEnd{"a.c", 10, 0, ""}));
}

// The trace: T1 writes X (m.c:10) and reads Y (m.c:11); T2 reads X (m.c:20) and
// writes Y (m.c:21). One race (one event of each thread), two race sites: the pairs that share
// a variable. m.c:10 <-> m.c:21 shares nothing and is no race.
constexpr const char* kTwoVariableTrace = "T0|fork(T1)\n"
                                          "T0|fork(T2)\n"
                                          "T1|w(X)|m.c:10\n"
                                          "T1|r(Y)|m.c:11\n"
                                          "T2|r(X)|m.c:20\n"
                                          "T2|w(Y)|m.c:21\n"
                                          "T0|join(T1)\n"
                                          "T0|join(T2)\n";

TEST(RaceSites, OnlyAccessSitesSharingAByteFormASite) {
    test::TempDir dir;
    const std::string path = dir.file("m.std");
    test::write_file(path, kTwoVariableTrace);
    const Trace trace = load_trace(path);
    const AnalysisResult result = analyze(trace);
    ASSERT_EQ(result.races.size(), 1u);
    const ReportModel model = make_report_model(trace, result);
    const std::vector<RaceSite> sites = group_race_sites(model);
    std::map<std::string, std::set<std::string>> found;
    for (const RaceSite& s : sites)
        found[s.key] = s.variables;
    EXPECT_EQ(found, (std::map<std::string, std::set<std::string>>{{"m.c:10 <-> m.c:20", {"X"}},
                                                                   {"m.c:11 <-> m.c:21", {"Y"}}}));
    EXPECT_EQ(race_site_keys(model.races[0]),
              (std::vector<std::string>{"m.c:10 <-> m.c:20", "m.c:11 <-> m.c:21"}));
    // The database stores the same sites, and reads back the same instances.
    const std::string db = dir.file("m.db");
    write_run(db, trace, result);
    EXPECT_EQ(ResultsDatabase(db).site_keys(1),
              (std::vector<std::string>{"m.c:10 <-> m.c:20", "m.c:11 <-> m.c:21"}));
    EXPECT_EQ(ResultsDatabase(db).read_report(1).races[0].pairs, model.races[0].pairs);
    // The text report names exactly these two sites.
    std::ostringstream text;
    write_text_report(text, model);
    EXPECT_NE(text.str().find("m.c:10  <->  m.c:20"), std::string::npos) << text.str();
    EXPECT_NE(text.str().find("m.c:11  <->  m.c:21"), std::string::npos) << text.str();
    EXPECT_EQ(text.str().find("m.c:21  <->  m.c:10"), std::string::npos) << text.str();
    EXPECT_EQ(text.str().find("m.c:10  <->  m.c:21"), std::string::npos) << text.str();
}

// Brute force: the site pairs of a race are exactly the (a site, b site) pairs sharing a byte of
// the race's conflicts, one writing, not both atomic — checked on random STD traces.
TEST(RaceSites, SitePairsMatchABruteForceDefinition) {
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
        test::TempDir dir;
        const std::string path = dir.file("r.std");
        test::write_random_std(path, seed, 200);
        const Trace trace = load_trace(path);
        const AnalysisResult result = analyze(trace);
        const ReportModel model = make_report_model(trace, result);
        for (const Race& r : result.races) {
            const RaceAccesses race = race_accesses(trace, r);
            std::set<std::pair<std::uint32_t, std::uint32_t>> expected;
            for (std::uint32_t i = 0; i < race.sites_a.size(); ++i)
                for (std::uint32_t j = 0; j < race.sites_b.size(); ++j) {
                    const AccessSite& x = trace.sites[race.sites_a[i]];
                    const AccessSite& y = trace.sites[race.sites_b[j]];
                    if (!((x.flags | y.flags) & kAccessWrite)) continue;
                    if ((x.flags & y.flags) & kAccessAtomic) continue;
                    bool shared = false;
                    for (std::uint32_t p = 0; p < x.range_count; ++p)
                        for (std::uint32_t q = 0; q < y.range_count; ++q)
                            for (const Interval& c : race.conflicts) {
                                const Interval& u = trace.ranges[x.first_range + p];
                                const Interval& v = trace.ranges[y.first_range + q];
                                const std::uint64_t lo = std::max({u.lo, v.lo, c.lo});
                                const std::uint64_t hi = std::min({u.hi, v.hi, c.hi});
                                shared = shared || lo < hi;
                            }
                    if (shared) expected.insert({i, j});
                }
            std::set<std::pair<std::uint32_t, std::uint32_t>> got;
            for (const ReportSitePair& p : model.races[r.id].pairs)
                got.insert({p.a, p.b});
            EXPECT_EQ(got, expected) << "seed " << seed << " race " << r.id;
            EXPECT_FALSE(got.empty()) << "every race has a site pair";
        }
    }
}

TEST(RaceSites, EveryRaceIsAnInstanceOfItsSitePairsKeys) {
    const ReportModel m = hand_made_model();
    const auto sites = group_race_sites(m);
    std::set<std::string> keys;
    std::size_t instances = 0;
    for (const RaceSite& s : sites) {
        keys.insert(s.key);
        instances += s.races.size();
        EXPECT_FALSE(site_end_less(s.second, s.first));
    }
    EXPECT_EQ(keys.size(), sites.size());
    std::size_t expected = 0;
    for (const ReportRace& r : m.races)
        expected += race_site_keys(r).size();
    EXPECT_EQ(instances, expected);
    // First partitions first.
    EXPECT_TRUE(sites.front().in_first_partition);
    EXPECT_EQ(sites.front().strongest(), RaceStatus::Feasible);
    // The store computes the same sites from the trace.
    test::TempDir dir;
    const std::string db = dir.file("r.db");
    const Trace trace = load_trace(test::sample_trace("figure-2-1.std"));
    const AnalysisResult result = analyze(trace);
    write_run(db, trace, result);
    std::vector<std::string> stored;
    for (const RaceSite& s : group_race_sites(make_report_model(trace, result)))
        stored.push_back(s.key);
    std::sort(stored.begin(), stored.end());
    EXPECT_EQ(ResultsDatabase(db).site_keys(1), stored);
    EXPECT_EQ(std::count(stored.begin(), stored.end(), "workq.c:20 <-> workq.c:20"), 0)
        << "both sides only read line 20";
}

TEST(RaceSites, RaceWithoutSitesCountsUnderTheUnknownPair) {
    ReportRace r;
    EXPECT_EQ(race_site_keys(r), (std::vector<std::string>{"<unknown> <-> <unknown>"}));
    r.sites_a = {{"x.c", 1, 0, "", "write", {}}};
    r.sites_b = {{"x.c", 2, 0, "", "read", {}}, {"x.c", 3, 0, "", "read", {}}};
    r.pairs = {{0, 1, "v"}};
    EXPECT_EQ(race_site_keys(r), (std::vector<std::string>{"x.c:1 <-> x.c:3"}));
}

TEST(Suppressions, PatternsMatchLikeThreadSanitizer) {
    EXPECT_TRUE(suppression_pattern_matches("queue", "/src/app/queue.c"));
    EXPECT_TRUE(suppression_pattern_matches("queue_*", "queue_push"));
    EXPECT_TRUE(suppression_pattern_matches("^queue_push$", "queue_push"));
    EXPECT_FALSE(suppression_pattern_matches("^queue_push$", "my_queue_push"));
    EXPECT_FALSE(suppression_pattern_matches("^push", "queue_push"));
    EXPECT_TRUE(suppression_pattern_matches("push$", "queue_push"));
    EXPECT_FALSE(suppression_pattern_matches("push$", "queue_push2"));
    EXPECT_TRUE(suppression_pattern_matches("src/*/queue.c", "/src/app/queue.c"));
    EXPECT_FALSE(suppression_pattern_matches("pop", "queue_push"));
}

TEST(Suppressions, FileSyntax) {
    const Suppressions s =
        parse("# comment\n\nrace:queue_push\n  race_top:^main$  \ndeadlock:whatever\nthread:x\n");
    ASSERT_EQ(s.rules().size(), 4u);
    EXPECT_EQ(s.rules()[0].line, 3u);
    EXPECT_EQ(s.rules()[1].pattern, "^main$");
    for (const char* bad : {"race", "racy:foo", "race:", "race:   ", ":foo"}) {
        try {
            parse(std::string("# ok\n") + bad + "\n");
            ADD_FAILURE() << bad;
        } catch (const InputError& e) {
            EXPECT_EQ(e.file(), "supp.txt");
            EXPECT_EQ(e.line(), 2u) << bad;
            EXPECT_EQ(std::string(e.what()).rfind("supp.txt:2: ", 0), 0u) << e.what();
        }
    }
    EXPECT_THROW(Suppressions::load("/nonexistent/supp.txt"), InputError);
}

TEST(Suppressions, SuppressRacesByFunctionOrFileOfEitherSide) {
    const ReportModel m = hand_made_model();
    // Race 0's race sites (conflicting site pairs): queue_push <-> hashtable.h (in queue_pop),
    // queue_push <-> the weird file, and the unknown location <-> the weird file. TSan reports
    // each pair by itself: the race is suppressed only when every pair is. Races 1 and 2 name
    // synchronization events, without access sites.
    ASSERT_EQ(m.races[0].pairs.size(), 3u);
    FilterStats st;
    RaceFilter f;
    const Suppressions by_function = parse("race:queue_push\n");
    f.suppressions = &by_function;
    EXPECT_EQ(race_ids(filter_report(m, f, &st)), (std::vector<std::uint32_t>{0, 1, 2}))
        << "the unknown location <-> weird file pair does not involve queue_push";
    EXPECT_EQ(st.suppressed, 0u);
    const Suppressions by_file = parse("race:weird*.c\n");
    f.suppressions = &by_file;
    EXPECT_EQ(filter_report(m, f, &st).races.size(), 3u)
        << "queue_push <-> hashtable.h does not involve the weird file";
    const Suppressions both = parse("race:weird*.c\nrace:queue_push\n");
    f.suppressions = &both;
    EXPECT_EQ(race_ids(filter_report(m, f, &st)), (std::vector<std::uint32_t>{1, 2}));
    EXPECT_EQ(st.suppressed, 1u);
    EXPECT_EQ(st.kept, 2u);
    // The rule of the first pair counts the hit (as TSan counts the rule that matched a report).
    EXPECT_EQ(both.rules()[1].hits, 1u);
    EXPECT_EQ(both.rules()[0].hits, 0u);
    const Suppressions by_caller = parse("race:queue_pop\nrace:weird\n");
    f.suppressions = &by_caller;
    EXPECT_EQ(filter_report(m, f).races.size(), 2u)
        << "race: matches any frame: queue_pop, into which the hashtable.h access is inlined";
    const Suppressions top_caller = parse("race_top:queue_pop\nrace:weird\n");
    f.suppressions = &top_caller;
    EXPECT_EQ(filter_report(m, f).races.size(), 3u)
        << "race_top: the innermost frame only (std::_Hashtable::find)";
    const Suppressions top_access = parse("race_top:_Hashtable::find$\nrace:weird\n");
    f.suppressions = &top_access;
    EXPECT_EQ(filter_report(m, f).races.size(), 2u);
    const Suppressions other_type = parse("deadlock:queue_push\nmutex:weird\n");
    f.suppressions = &other_type;
    EXPECT_EQ(filter_report(m, f).races.size(), m.races.size());
}

TEST(Filters, FirstOnlyStatusAndFile) {
    const ReportModel m = hand_made_model();
    RaceFilter f;
    EXPECT_TRUE(filter_is_empty(f));
    f.first_only = true;
    ReportModel r = filter_report(m, f);
    EXPECT_EQ(race_ids(r), (std::vector<std::uint32_t>{0}));
    ASSERT_EQ(r.partitions.size(), 1u);
    EXPECT_EQ(r.partitions[0].id, 0u);
    f = {};
    f.statuses = {RaceStatus::Unvalidated, RaceStatus::FeasibleEc};
    r = filter_report(m, f);
    EXPECT_EQ(race_ids(r), (std::vector<std::uint32_t>{1, 2}));
    EXPECT_EQ(r.counts.apparent, m.counts.apparent) << "counts stay the run's";
    f = {};
    f.file_patterns = {"app/main.c"};
    EXPECT_TRUE(filter_report(m, f).races.empty());
    f.file_patterns = {"queue.c"};
    EXPECT_EQ(race_ids(filter_report(m, f)), (std::vector<std::uint32_t>{0}));
    f.file_patterns = {"/src/*/queue.c"};
    EXPECT_EQ(race_ids(filter_report(m, f)), (std::vector<std::uint32_t>{0}));
    f.file_patterns = {"*.h"};
    EXPECT_TRUE(filter_report(m, f).races.empty());
}

TEST(Filters, FailOnPolicies) {
    const ReportModel m = hand_made_model();
    EXPECT_FALSE(fails(m, FailOn::None));
    EXPECT_TRUE(fails(m, FailOn::Any));
    EXPECT_TRUE(fails(m, FailOn::Feasible));
    EXPECT_TRUE(fails(m, FailOn::First));
    RaceFilter f;
    f.statuses = {RaceStatus::Unvalidated};
    const ReportModel unvalidated = filter_report(m, f);
    EXPECT_TRUE(fails(unvalidated, FailOn::Any));
    EXPECT_FALSE(fails(unvalidated, FailOn::Feasible));
    EXPECT_FALSE(fails(unvalidated, FailOn::First)) << "race 1 is in a later partition";
    f.statuses = {RaceStatus::FeasibleEc};
    EXPECT_TRUE(fails(filter_report(m, f), FailOn::Feasible));
    EXPECT_FALSE(fails(filter_report(m, f), FailOn::First));
    f = {};
    f.file_patterns = {"*.h"};
    EXPECT_FALSE(fails(filter_report(m, f), FailOn::Any));
}

TEST(Filters, BaselineKeepsOnlyRacesWithANewSite) {
    test::TempDir dir;
    const std::string old_db = dir.file("old.db");
    test::HandMadeRun h = test::hand_made_run();
    // The baseline knew race 0 only; races 1 and 2 share the unknown site pair (no access site).
    test::HandMadeRun before = h;
    before.result.races = {h.result.races[0]};
    before.result.partitions = {{0, true, 1, {}}};
    write_run(old_db, before.trace, before.result);
    const auto keys = ResultsDatabase(old_db).site_keys();
    const std::set<std::string> baseline(keys.begin(), keys.end());
    const ReportModel m = make_report_model(h.trace, h.result);
    RaceFilter f;
    f.baseline = &baseline;
    FilterStats st;
    const ReportModel r = filter_report(m, f, &st);
    EXPECT_EQ(race_ids(r), (std::vector<std::uint32_t>{1, 2}));
    EXPECT_EQ(st.baselined, 1u);
    // A baseline equal to the run leaves nothing.
    const std::string same_db = dir.file("same.db");
    write_run(same_db, h.trace, h.result);
    const auto all = ResultsDatabase(same_db).site_keys();
    const std::set<std::string> everything(all.begin(), all.end());
    f.baseline = &everything;
    EXPECT_TRUE(filter_report(m, f).races.empty());
}

// --- SARIF 2.1.0 ---------------------------------------------------------------------------

pt::ptree parse_json(const std::string& text) {
    std::istringstream in(text);
    pt::ptree tree;
    pt::read_json(in, tree);
    return tree;
}

std::vector<pt::ptree> array(const pt::ptree& tree, const std::string& key) {
    std::vector<pt::ptree> out;
    for (const auto& [k, v] : tree.get_child(key)) {
        EXPECT_TRUE(k.empty()) << key << " is not an array";
        out.push_back(v);
    }
    return out;
}

void expect_location(const pt::ptree& loc) {
    const auto physical = loc.get_child_optional("physicalLocation");
    ASSERT_TRUE(physical) << "location without physicalLocation";
    const std::string uri = physical->get<std::string>("artifactLocation.uri");
    EXPECT_FALSE(uri.empty());
    EXPECT_EQ(uri.find(' '), std::string::npos) << uri;
    EXPECT_EQ(uri.find('<'), std::string::npos) << uri;
    if (auto region = physical->get_child_optional("region")) {
        EXPECT_GE(region->get<int>("startLine"), 1);
        if (auto column = region->get_optional<int>("startColumn")) {
            EXPECT_GE(*column, 1);
        }
    }
}

TEST(Sarif, HasTheRequiredPropertiesOf210AndOneResultPerRaceSite) {
    TriageRun run;
    run.id = 4;
    run.model = hand_made_model();
    std::ostringstream out;
    SarifOptions options;
    options.source_root = "/src/app";
    write_sarif_report(out, {run}, options);
    const pt::ptree log = parse_json(out.str());
    EXPECT_EQ(log.get<std::string>("version"), "2.1.0");
    EXPECT_NE(log.get<std::string>("$schema").find("sarif-schema-2.1.0.json"), std::string::npos);
    const auto runs = array(log, "runs");
    ASSERT_EQ(runs.size(), 1u);
    const pt::ptree& r = runs[0];
    EXPECT_EQ(r.get<std::string>("tool.driver.name"), "firstrace");
    const auto rules = array(r, "tool.driver.rules");
    std::set<std::string> rule_ids;
    for (const auto& rule : rules) {
        rule_ids.insert(rule.get<std::string>("id"));
        EXPECT_FALSE(rule.get<std::string>("shortDescription.text").empty());
        const std::string level = rule.get<std::string>("defaultConfiguration.level");
        EXPECT_TRUE(level == "error" || level == "warning" || level == "note") << level;
    }
    EXPECT_EQ(rule_ids,
              (std::set<std::string>{"race/feasible", "race/feasible-ec", "race/unvalidated"}));
    EXPECT_EQ(r.get<std::string>("originalUriBaseIds.%SRCROOT%.uri"), "file:///src/app/");

    const auto results = array(r, "results");
    auto sites = group_race_sites(run.model);
    // A site with no known location at all cannot be shown by code scanning: counted, not listed.
    std::erase_if(sites,
                  [](const RaceSite& s) { return s.first.file.empty() && s.second.file.empty(); });
    // queue.c:42 <-> weird.c:5 and <unknown> <-> weird.c:5 (race 0), queue.c:42 <-> queue.c:57
    // (race 1: the read in an inlined hashtable.h frame is headlined by queue_pop).
    ASSERT_EQ(sites.size(), 3u);
    ASSERT_EQ(results.size(), sites.size());
    EXPECT_EQ(r.get<int>("properties.raceSitesWithoutLocation"), 1);
    std::set<std::string> fingerprints;
    for (std::size_t i = 0; i < results.size(); ++i) {
        const pt::ptree& res = results[i];
        EXPECT_FALSE(res.get<std::string>("message.text").empty());
        const std::string rule_id = res.get<std::string>("ruleId");
        const auto index = res.get<std::size_t>("ruleIndex");
        ASSERT_LT(index, rules.size());
        EXPECT_EQ(rules[index].get<std::string>("id"), rule_id);
        const std::string level = res.get<std::string>("level");
        EXPECT_TRUE(level == "error" || level == "warning" || level == "note") << level;
        const auto locations = array(res, "locations");
        const auto related = array(res, "relatedLocations");
        ASSERT_EQ(locations.size(), 1u);
        ASSERT_EQ(related.size(), 1u);
        expect_location(locations[0]);
        EXPECT_GE(related[0].get<int>("id"), 0);
        const bool both_known = !sites[i].first.file.empty() && !sites[i].second.file.empty();
        if (both_known) expect_location(related[0]);
        fingerprints.insert(res.get<std::string>("partialFingerprints.firstraceSiteKey/v1"));
    }
    EXPECT_EQ(fingerprints.size(), results.size());
    // Paths under the source root are relative to %SRCROOT%, with special characters encoded.
    const std::string text = out.str();
    EXPECT_NE(text.find("\"uri\":\"queue.c\",\"uriBaseId\":\"%SRCROOT%\""), std::string::npos)
        << text;
    EXPECT_NE(text.find("weird%20%3Cname%3E%20%26%20%22quotes%22.c"), std::string::npos) << text;
    EXPECT_NE(text.find("\"ruleId\":\"race/feasible\",\"ruleIndex\":0,\"level\":\"error\""),
              std::string::npos);
}

TEST(Sarif, EveryRunOfTheDatabaseIsASarifRun) {
    TriageRun a, b;
    a.model = hand_made_model();
    b.model = a.model;
    b.model.races.clear();
    b.model.partitions.clear();
    std::ostringstream out;
    write_sarif_report(out, {a, b});
    const pt::ptree log = parse_json(out.str());
    const auto runs = array(log, "runs");
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[1].get_child("results").size(), 0u);
}

// --- Markdown and HTML ---------------------------------------------------------------------

TEST(Markdown, TablesOfRaceSitesWithEscaping) {
    TriageRun run;
    run.id = 2;
    run.title = "app | *bold*";
    run.model = hand_made_model();
    std::ostringstream out;
    write_markdown_report(out, {run});
    const std::string md = out.str();
    EXPECT_NE(md.find("## Run 2: app \\| \\*bold\\*"), std::string::npos) << md;
    EXPECT_NE(md.find("### First partition 0 (1 race)"), std::string::npos) << md;
    EXPECT_NE(md.find("/src/app/queue.c:42 (queue\\_push)"), std::string::npos) << md;
    EXPECT_NE(md.find("weird \\<name\\> \\& \"quotes\".c:5 (f\\|g)"), std::string::npos) << md;
    EXPECT_NE(md.find("### Validated races in later partitions"), std::string::npos) << md;
}

TEST(Html, SelfContainedWithEscapedSourceExcerpts) {
    TriageRun run;
    run.id = 1;
    run.title = "<script>alert(1)</script>";
    run.model = hand_made_model();
    std::string source;
    for (int line = 1; line <= 60; ++line)
        source += line == 42 ? "    q->items[q->tail++] = x; // <b>&amp;</b>\n"
                             : "line " + std::to_string(line) + "\n";
    run.source = [&](const std::string& file) -> std::optional<std::string> {
        if (file == "/src/app/queue.c") return source;
        return std::nullopt;
    };
    std::ostringstream out;
    write_html_report(out, {run});
    const std::string html = out.str();
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_NE(html.find("<style>"), std::string::npos);
    EXPECT_EQ(html.find("<script"), std::string::npos) << "nothing executable, title escaped";
    EXPECT_EQ(html.find("<link"), std::string::npos);
    EXPECT_EQ(html.find("src="), std::string::npos);
    EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
    EXPECT_NE(html.find("<span class=\"hit\"><i>42</i>    q-&gt;items[q-&gt;tail++] = x; // "
                        "&lt;b&gt;&amp;amp;&lt;/b&gt;</span>"),
              std::string::npos)
        << html;
    EXPECT_NE(html.find("<i>39</i>line 39"), std::string::npos);
    EXPECT_NE(html.find("<i>45</i>line 45"), std::string::npos);
    EXPECT_EQ(html.find("<i>46</i>"), std::string::npos);
    EXPECT_NE(html.find("First partition 0"), std::string::npos);
    EXPECT_NE(html.find("source text not stored"), std::string::npos);
    EXPECT_NE(html.find("weird &lt;name&gt; &amp; &quot;quotes&quot;.c:5"), std::string::npos);
    EXPECT_NE(html.rfind("</html>"), std::string::npos);
}

} // namespace
} // namespace firstrace

namespace firstrace {
namespace {

TEST(MergedRuns, ARaceSiteFoundInAnyRunIsListedOnceWithItsRuns) {
    const ReportModel one = hand_made_model();
    ReportModel other = one;
    other.races.erase(other.races.begin() + 1, other.races.end()); // the second run found race 0
    other.partitions = {{0, true, {0}, {}}};
    const ReportModel merged = merge_report_models({one, other});
    EXPECT_EQ(merged.runs, 2u);
    ASSERT_EQ(merged.races.size(), one.races.size() + 1);
    EXPECT_EQ(merged.races.back().id, one.races.size());
    EXPECT_EQ(merged.races.back().run, 1u);
    EXPECT_EQ(merged.races.back().partition, one.partitions.size());
    EXPECT_EQ(merged.counts.apparent, 2 * one.counts.apparent);
    const auto sites = group_race_sites(merged);
    EXPECT_EQ(sites.size(), group_race_sites(one).size()) << "same sites, listed once";
    std::size_t in_both = 0;
    for (const RaceSite& s : sites)
        in_both += s.runs == std::set<std::uint32_t>{0, 1};
    EXPECT_EQ(in_both, race_site_keys(one.races[0]).size());
    std::ostringstream text;
    write_text_report(text, merged);
    EXPECT_NE(text.str().find("found in 2 of 2 runs"), std::string::npos) << text.str();
}

TEST(Filters, HidingAPartitionMakesTheOnesAfterItFirst) {
    const ReportModel m = hand_made_model();
    // Race 0 (partition 0, first) is suppressed: partition 1 has no kept race before it.
    const Suppressions hide = parse("race:weird\nrace:queue_push\n");
    RaceFilter f;
    f.suppressions = &hide;
    const ReportModel r = filter_report(m, f);
    for (const ReportPartition& p : r.partitions)
        EXPECT_TRUE(p.first) << "partition " << p.id;
    // Selecting by status does not re-rank: partition 0 is still before partition 1.
    RaceFilter by_status;
    by_status.statuses = {RaceStatus::Unvalidated};
    for (const ReportPartition& p : filter_report(m, by_status).partitions)
        EXPECT_FALSE(p.first) << "partition " << p.id;
}

} // namespace
} // namespace firstrace
