// Never a crash on any input: mutated valid traces either parse and analyze, or fail with an
// InputError naming the line.
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "firstrace/analysis.hpp"
#include "firstrace/errors.hpp"
#include "test_support.hpp"

namespace firstrace {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

TEST(Robustness, MutatedTracesParseAndAnalyzeOrFailCleanly) {
    std::mt19937_64 rng(42);
    int parsed = 0, rejected = 0;
    for (int round = 0; round < 400; ++round) {
        bench::GeneratorParams params;
        params.seed = static_cast<std::uint64_t>(round);
        params.threads = 3;
        params.operations = 40;
        auto lines = lines_of(test::random_std(params));
        if (lines.empty()) continue;
        const int mutations = 1 + static_cast<int>(rng() % 4);
        for (int m = 0; m < mutations; ++m) {
            const std::size_t i = rng() % lines.size(), j = rng() % lines.size();
            switch (rng() % 5) {
            case 0:
                lines.erase(lines.begin() + static_cast<long>(i));
                break; // drop
            case 1:
                std::swap(lines[i], lines[j]);
                break; // reorder
            case 2:
                lines.insert(lines.begin() + static_cast<long>(i), lines[j]);
                break; // duplicate
            case 3:
                lines[i] = lines[i].substr(0, rng() % (lines[i].size() + 1));
                break; // truncate
            case 4:
                lines[i][rng() % lines[i].size()] = "|()Tx0 "[rng() % 7];
                break; // corrupt
            }
            if (lines.empty()) lines.push_back("");
        }
        std::string text;
        for (const auto& l : lines)
            text += l + "\n";
        test::TempFile file(text);
        try {
            const Trace trace = read_std_trace(file.path());
            ++parsed;
            for (Ordering o : {Ordering::Approximate, Ordering::Complete}) {
                AnalysisOptions options;
                options.ordering = o;
                const AnalysisResult result = analyze(trace, options);
                EXPECT_EQ(result.counts.apparent, result.races.size());
            }
        } catch (const InputError& e) {
            ++rejected;
            EXPECT_GT(e.line(), 0u) << e.what();
        }
    }
    EXPECT_GT(parsed, 50);
    EXPECT_GT(rejected, 50);
}

} // namespace
} // namespace firstrace
