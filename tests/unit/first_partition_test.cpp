// Thm 8.2 (every first partition holds a feasible race, one not an artifact of any other) as
// the analysis proves it with its default transitive-search budget and with no budget at all
// (every origin on the conservative fallback): no first partition may be left without a
// validated (feasible / feasible-ec) race, on random traces and on the shapes of the stress
// suite (bench/stress), where the budget is hit the most.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "firstrace/analysis.hpp"
#include "stress/stress_shapes.hpp"
#include "test_support.hpp"

namespace firstrace {
namespace {

void expect_validated_race_in_each_first_partition(const Trace& trace, const std::string& label) {
    for (Ordering ordering : {Ordering::Approximate, Ordering::Complete})
        for (std::uint64_t budget : {AnalysisOptions{}.transitive_budget, std::uint64_t(0)}) {
            SCOPED_TRACE(label + ", " + to_string(ordering) + ", budget " + std::to_string(budget));
            AnalysisOptions options;
            options.ordering = ordering;
            options.transitive_budget = budget;
            const AnalysisResult result = analyze(trace, options);
            const auto members = partition_members(result);
            std::size_t first = 0;
            for (const Partition& p : result.partitions) {
                if (!p.first) continue;
                ++first;
                EXPECT_TRUE(std::any_of(members[p.id].begin(), members[p.id].end(),
                                        [&](std::uint32_t x) {
                                            return result.races[x].status !=
                                                   RaceStatus::Unvalidated;
                                        }))
                    << "first partition " << p.id << " without a validated race";
            }
            EXPECT_EQ(first > 0, !result.races.empty());
        }
}

TEST(FirstPartitions, RandomTracesHoldAValidatedRace) {
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        bench::GeneratorParams p;
        p.seed = seed;
        p.threads = 2 + static_cast<std::uint32_t>(seed % 6);
        p.locks = static_cast<std::uint32_t>(seed % 4);
        p.variables = 1 + static_cast<std::uint32_t>(seed % 8);
        p.operations = 100 + 5 * seed;
        p.nested_forks = seed % 2 == 0;
        expect_validated_race_in_each_first_partition(test::parse_std(test::random_std(p)),
                                                      "seed " + std::to_string(seed));
    }
}

TEST(FirstPartitions, StressShapesHoldAValidatedRace) {
    for (const char* shape : {"hot", "vars", "waves", "lock", "low", "churn", "random"})
        for (std::uint32_t threads : {2u, 8u}) {
            std::ostringstream text;
            bench::StressTraceWriter({shape, threads, 1500, 7}).write(text);
            expect_validated_race_in_each_first_partition(test::parse_std(text.str()),
                                                          std::string(shape) + ", " +
                                                              std::to_string(threads) + " threads");
        }
}

} // namespace
} // namespace firstrace
