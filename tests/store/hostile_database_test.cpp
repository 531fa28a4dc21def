// Databases made to hurt the reader (issue 13): a schema whose query never ends and ids that
// would size vectors by terabytes. Each must fail with one line naming the database, in
// bounded time and memory, through `firstrace report` and through the GUI's browser.
#include <sqlite3.h>

#include <chrono>
#include <string>

#include "firstrace/errors.hpp"
#include "firstrace/results_browser.hpp"
#include "firstrace/results_database.hpp"
#include "store_test_support.hpp"

namespace firstrace {
namespace {

using test::run_firstrace;
using test::TempDir;

const std::string kFigure = test::sample_trace("figure-2-1.std");

// The thesis example analysed into `path`, then `sql` run on it.
void make_database(const std::string& path, const char* sql) {
    ASSERT_EQ(run_firstrace("analyze -q --db " + path + " " + kFigure).status, 0);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &error);
    const std::string message = error ? error : "";
    sqlite3_free(error);
    sqlite3_close(db);
    ASSERT_EQ(rc, SQLITE_OK) << message;
}

void expect_one_line_error(const test::CommandRun& r, const std::string& words) {
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find(words), std::string::npos) << r.err;
    ASSERT_FALSE(r.err.empty());
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "not one line: " << r.err;
}

TEST(HostileDatabase, EndlessQueryFailsWithinTheWorkBound) {
    TempDir dir;
    const std::string db = dir.file("endless.db");
    // `runs` becomes a view that never yields a row: a recursive count without end, filtered
    // to nothing. Without the work bound the reader would run until killed.
    make_database(db, "ALTER TABLE runs RENAME TO stored_runs;"
                      "CREATE VIEW runs AS WITH RECURSIVE n(x) AS (SELECT 0 UNION ALL "
                      "SELECT x + 1 FROM n) SELECT r.* FROM stored_runs AS r, n WHERE n.x < 0;");
    const auto started = std::chrono::steady_clock::now();
    expect_one_line_error(run_firstrace("report " + db),
                          db + ": the database is damaged: a query did not finish within");
    // The GUI's open counts the runs: the same bound, the same words in its message box.
    const auto opened = browser::ResultsBrowser::open(db);
    EXPECT_FALSE(opened.browser);
    EXPECT_EQ(opened.error, browser::ResultsBrowser::OpenError::Corrupt);
    EXPECT_NE(opened.message.find("did not finish within"), std::string::npos) << opened.message;
    // Not a timing assertion on the work (that is bounded by instructions, not seconds): a
    // guard that the test itself ends, far above the bound's fraction of a second.
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::minutes(1));
}

TEST(HostileDatabase, IdsThatWouldSizeVectorsAreRefused) {
    TempDir dir;
    // The thesis example stores locations and access sites, no calling contexts: one is added.
    const std::pair<const char*, const char*> cases[] = {
        {"UPDATE locations SET id = 1099511627776 WHERE id = (SELECT max(id) FROM locations)",
         "location"},
        {"INSERT INTO contexts VALUES (1, 1099511627776, NULL, NULL)", "context"},
        {"UPDATE access_sites SET id = 1099511627776 WHERE id = (SELECT max(id) FROM "
         "access_sites)",
         "access site"}};
    int n = 0;
    for (const auto& [sql, what] : cases) {
        const std::string db = dir.file("ids-" + std::to_string(n++) + ".db");
        make_database(db, sql);
        expect_one_line_error(run_firstrace("report " + db),
                              db + ": run 1: " + what + " ids are not dense");
    }
}

} // namespace
} // namespace firstrace
