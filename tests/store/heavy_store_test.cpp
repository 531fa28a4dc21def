// Large databases (ctest label `heavy`): 10^5 synthetic races written, appended and read back.
#include "firstrace/results_database.hpp"
#include "firstrace/triage_report.hpp"
#include "store/synthetic_run.hpp"
#include "store_test_support.hpp"

namespace firstrace {
namespace {

TEST(HeavyStore, HundredThousandRacesRoundTrip) {
    test::TempDir dir;
    const std::string path = dir.file("big.db");
    const bench::SyntheticRun s = bench::make_synthetic_run(100000);
    const ReportModel expected = make_report_model(s.trace, s.result);
    EXPECT_EQ(write_run(path, s.trace, s.result), 1);
    EXPECT_EQ(write_run(path, s.trace, s.result), 2); // appended: indexes rebuilt over both runs
    const ResultsDatabase db(path);
    const std::string json = test::json_of(expected);
    EXPECT_EQ(test::json_of(db.read_report(1)), json);
    EXPECT_EQ(test::json_of(db.read_report(2)), json);
    std::vector<std::string> keys;
    for (const RaceSite& site : group_race_sites(expected))
        keys.push_back(site.key);
    std::sort(keys.begin(), keys.end());
    EXPECT_EQ(db.site_keys(2), keys);
}

} // namespace
} // namespace firstrace
