// Checks what `firstrace analyze` reports about a sample (issue 12, "Done when"):
//   - in the results database, every race site instance pairs an a-site and a b-site that
//     share a byte (site_ranges), at least one writing and not both atomic, and every race is
//     an instance of some race site: no site pair that shares no byte;
//   - in the first 40 lines of the text report, every line marked `// ... BUG in FUNC` that
//     takes part in a race site of this run (which bugs a run meets depends on its schedule) is
//     named (file:line) with the function that made the access ("in FUNC at"), and, when the trace
//     recorded heap blocks, the line marked `// ALLOC` (the block's allocation line);
//   - on such a bug line, `NAMED text` (the memory's name, e.g. a DWARF member path) and
//     `HOLDING text` (a lock the thread held there, to the end of the line) appear in those
//     40 lines too, and `CALLED from CALLER` names the frame the access's stack shows under
//     FUNC's (`#1 CALLER`: a calling context after non-local jumps), and `OUTERMOST in FUNC2`
//     that the access's stack ends with FUNC2's frame (no dead frame left under the live ones
//     by a caught exception).
//
//   firstrace_report_check SAMPLE DB TEXT
//
// Exit 0 when all holds, 1 with one line per failure, 2 on bad input.
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

std::int64_t query_int(sqlite3* db, const std::string& sql) {
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) != SQLITE_OK)
        throw std::runtime_error(std::string("bad query: ") + sqlite3_errmsg(db));
    std::int64_t v = -1;
    if (sqlite3_step(s) == SQLITE_ROW) v = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    return v;
}

// The instances of run 1 whose two access sites share no byte, or share one without a
// writer, or are both atomic.
constexpr const char* kBadInstances = R"(
SELECT count(*) FROM race_site_instances AS i
JOIN race_accesses AS a ON a.run_id = i.run_id AND a.race_id = i.race_id AND a.side = 'a'
                       AND a.ordinal = i.a_ordinal
JOIN race_accesses AS b ON b.run_id = i.run_id AND b.race_id = i.race_id AND b.side = 'b'
                       AND b.ordinal = i.b_ordinal
JOIN access_sites AS sa ON sa.run_id = i.run_id AND sa.id = a.site
JOIN access_sites AS sb ON sb.run_id = i.run_id AND sb.id = b.site
WHERE i.run_id = 1 AND (
      NOT EXISTS (SELECT 1 FROM site_ranges AS x JOIN site_ranges AS y ON y.run_id = x.run_id
                  WHERE x.run_id = i.run_id AND x.site = a.site AND y.site = b.site
                    AND x.lo < y.hi AND y.lo < x.hi)
   OR ((sa.flags | sb.flags) & 2) = 0
   OR (sa.flags & sb.flags & 4) != 0))";

constexpr const char* kRacesWithoutInstance = R"(
SELECT count(*) FROM races AS r WHERE r.run_id = 1 AND NOT EXISTS
  (SELECT 1 FROM race_site_instances AS i WHERE i.run_id = 1 AND i.race_id = r.id))";

} // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::cerr << "usage: firstrace_report_check SAMPLE DB TEXT\n";
        return 2;
    }
    const std::string sample = argv[1];
    const std::string base = std::filesystem::path(sample).filename().string();
    std::vector<std::string> failures;
    try {
        sqlite3* db = nullptr;
        if (sqlite3_open_v2(argv[2], &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK)
            throw std::runtime_error(std::string(argv[2]) + ": cannot open");
        const std::int64_t bad = query_int(db, kBadInstances);
        if (bad != 0)
            failures.push_back(std::to_string(bad) +
                               " race site instances pair access sites that share no byte "
                               "(or no writer, or both atomic)");
        const std::int64_t orphans = query_int(db, kRacesWithoutInstance);
        if (orphans != 0)
            failures.push_back(std::to_string(orphans) + " races are no race site's instance");
        const bool heap = query_int(db, "SELECT count(*) FROM heap_blocks WHERE run_id = 1") > 0;
        // Whether line n of the sample is an end of some race site of the run.
        auto in_a_site = [&](int n) {
            const std::string file = "'%" + base + "'";
            const std::string line = std::to_string(n);
            return query_int(db, "SELECT count(*) FROM site_pairs WHERE run_id = 1 AND ((file_1 "
                                 "LIKE " +
                                     file + " AND line_1 = " + line + ") OR (file_2 LIKE " + file +
                                     " AND line_2 = " + line + "))") > 0;
        };

        std::ifstream text_in(argv[3]);
        if (!text_in) throw std::runtime_error(std::string(argv[3]) + ": cannot read");
        std::string head, line;
        for (int n = 0; n < 40 && std::getline(text_in, line); ++n)
            head += line + "\n";

        std::ifstream in(sample);
        if (!in) throw std::runtime_error(sample + ": cannot read");
        for (int n = 1; std::getline(in, line); ++n) {
            const std::string where = base + ":" + std::to_string(n);
            if (const auto at = line.find(" BUG in "); at != std::string::npos && in_a_site(n)) {
                std::string function = line.substr(at + 8);
                function = function.substr(0, function.find_first_of(" \t\r"));
                if (head.find(where) == std::string::npos)
                    failures.push_back(where + " (a bug) is not named in the first 40 lines");
                // C++ functions carry their parameter types: "in price_order(int) at".
                if (head.find("in " + function + " at ") == std::string::npos &&
                    head.find("in " + function + "(") == std::string::npos &&
                    head.find(" " + function + " " + where) == std::string::npos)
                    failures.push_back("function " + function + " of " + where +
                                       " is not named in the first 40 lines");
                if (const auto named = line.find(" NAMED "); named != std::string::npos) {
                    std::string name = line.substr(named + 7);
                    name = name.substr(0, name.find_first_of(" \t\r"));
                    if (head.find("Memory: " + name) == std::string::npos &&
                        head.find(", " + name) == std::string::npos)
                        failures.push_back("the memory of " + where + " is not named " + name +
                                           " in the first 40 lines");
                }
                if (const auto called = line.find(" CALLED from "); called != std::string::npos) {
                    std::string caller = line.substr(called + 13);
                    caller = caller.substr(0, caller.find_first_of(" \t\r"));
                    // the access's line, its frame #0, then #1
                    auto next_line = [&](std::size_t at) {
                        if (at == std::string::npos) return at;
                        const auto end = head.find('\n', at);
                        return end == std::string::npos ? end : end + 1;
                    };
                    // (the report may print the sample's path before `where`; C++ names
                    // carry their parameter types: "in add_count(long) at", "#1 worker(void*)")
                    auto access_line = [&](std::size_t from) {
                        const auto plain = head.find("in " + function + " at ", from);
                        const auto typed = head.find("in " + function + "(", from);
                        return plain < typed ? plain : typed;
                    };
                    std::size_t access = access_line(0);
                    while (access != std::string::npos &&
                           head.compare(head.find('\n', access) - where.size(), where.size(),
                                        where) != 0)
                        access = access_line(access + 1);
                    const auto frame1 = next_line(next_line(access));
                    const auto text = head.find_first_not_of(' ', frame1);
                    if (frame1 == std::string::npos || text == std::string::npos ||
                        (head.compare(text, 4 + caller.size(), "#1 " + caller + " ") != 0 &&
                         head.compare(text, 4 + caller.size(), "#1 " + caller + "(") != 0))
                        failures.push_back("the access at " + where + " is not shown called from " +
                                           caller + " in the first 40 lines");
                }
                if (const auto outer = line.find(" OUTERMOST in "); outer != std::string::npos) {
                    std::string bottom = line.substr(outer + 14);
                    bottom = bottom.substr(0, bottom.find_first_of(" \t\r"));
                    // the access's line, then its frames `#k FUNC file:line` to the last
                    std::size_t at = head.find("in " + function + " at ");
                    if (at == std::string::npos) at = head.find("in " + function + "(");
                    while (at != std::string::npos &&
                           head.compare(head.find('\n', at) - where.size(), where.size(), where) !=
                               0) {
                        const auto plain = head.find("in " + function + " at ", at + 1);
                        const auto typed = head.find("in " + function + "(", at + 1);
                        at = plain < typed ? plain : typed;
                    }
                    std::string last = at == std::string::npos ? "" : function;
                    bool more = false;
                    for (auto next = head.find('\n', at); next != std::string::npos;
                         next = head.find('\n', next + 1)) {
                        const auto text = head.find_first_not_of(' ', next + 1);
                        if (text == std::string::npos) break;
                        if (head.compare(text, 1, "#") == 0) {
                            const auto name = head.find(' ', text) + 1;
                            last = head.substr(name, head.find_first_of(" (\n", name) - name);
                        } else {
                            more = head.compare(text, 3, "\u2026") == 0; // "… n more frames"
                            break;
                        }
                    }
                    if (at == std::string::npos || more || last != bottom)
                        failures.push_back("the access at " + where + " has frames under " +
                                           bottom + "'s (outermost shown: " + last + ")");
                }
                if (const auto held = line.find(" HOLDING "); held != std::string::npos) {
                    std::string lock = line.substr(held + 9);
                    lock = lock.substr(0, lock.find_last_not_of(" \t\r") + 1);
                    if (head.find("holding " + lock) == std::string::npos)
                        failures.push_back("the lock held at " + where + " (" + lock +
                                           ") is not named in the first 40 lines");
                }
            }
            if (heap && line.find("// ALLOC") != std::string::npos &&
                head.find("allocated at") == std::string::npos)
                failures.push_back("no heap block is named in the first 40 lines");
            if (heap && line.find("// ALLOC") != std::string::npos &&
                head.find(where) == std::string::npos)
                failures.push_back("the allocation line " + where +
                                   " is not named in the first 40 lines");
        }
        sqlite3_close(db);
    } catch (const std::exception& e) {
        std::cerr << e.what() << "\n";
        return 2;
    }
    for (const std::string& f : failures)
        std::cout << base << ": " << f << "\n";
    return failures.empty() ? 0 : 1;
}
