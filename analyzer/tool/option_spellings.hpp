// The spellings of every enumerated command-line option, in one place: each table maps the words
// a user types to the value the library takes. Parsing, the list in an error message and the
// list in --help all come from the same table, so they cannot disagree.
#pragma once

#include <string>
#include <string_view>
#include <utility>

#include "firstrace/analysis_result.hpp"
#include "firstrace/errors.hpp"
#include "firstrace/results_database.hpp"
#include "firstrace/triage_report.hpp"

namespace firstrace::cli {

// Report formats; `analyze` writes the first two, `report` all of them.
enum class ReportFormat { Text, Json, Sarif, Markdown, Html };
// Text colours: on a terminal (auto), always, never.
enum class Colour { Auto, Always, Never };

template <typename T> struct Spelling {
    const char* word;
    T value;
};

inline constexpr Spelling<ReportFormat> kReportFormats[] = {{"text", ReportFormat::Text},
                                                            {"json", ReportFormat::Json},
                                                            {"sarif", ReportFormat::Sarif},
                                                            {"markdown", ReportFormat::Markdown},
                                                            {"html", ReportFormat::Html}};
inline constexpr Spelling<Ordering> kOrderings[] = {{"approximate", Ordering::Approximate},
                                                    {"complete", Ordering::Complete}};
inline constexpr Spelling<Colour> kColours[] = {
    {"auto", Colour::Auto}, {"always", Colour::Always}, {"never", Colour::Never}};
inline constexpr Spelling<RaceStatus> kStatuses[] = {{"feasible", RaceStatus::Feasible},
                                                     {"feasible-ec", RaceStatus::FeasibleEc},
                                                     {"unvalidated", RaceStatus::Unvalidated}};
inline constexpr Spelling<FailOn> kFailOn[] = {{"first", FailOn::First},
                                               {"feasible", FailOn::Feasible},
                                               {"any", FailOn::Any},
                                               {"none", FailOn::None}};
inline constexpr Spelling<IntegrityCheck> kIntegrityChecks[] = {{"auto", IntegrityCheck::Auto},
                                                                {"full", IntegrityCheck::Full},
                                                                {"quick", IntegrityCheck::Quick}};

// "a, b or c" from the first `count` words of a table (all by default).
template <typename T, std::size_t N>
std::string spellings(const Spelling<T> (&table)[N], std::size_t count = N) {
    std::string out;
    for (std::size_t i = 0; i < count && i < N; ++i)
        out += (i == 0                        ? ""
                : i + 1 == std::min(count, N) ? " or "
                                              : ", ") +
               std::string(table[i].word);
    return out;
}

// The value of `word` for option `--name`, among the first `count` entries of the table;
// UsageError listing the accepted words otherwise.
template <typename T, std::size_t N>
T parse_spelling(std::string_view name, const std::string& word, const Spelling<T> (&table)[N],
                 std::size_t count = N) {
    for (std::size_t i = 0; i < count && i < N; ++i)
        if (word == table[i].word) return table[i].value;
    throw UsageError("unknown --" + std::string(name) + " '" + word + "' (" +
                     spellings(table, count) + ")");
}

} // namespace firstrace::cli
