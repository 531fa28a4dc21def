// Schema creation, its documentation, versions and migrations, and the refusal of databases
// that are not firstrace's, newer, or corrupt (never modified, never a crash).
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>

#include "firstrace/errors.hpp"
#include "firstrace/results_database.hpp"
#include "results_database_schema.hpp"
#include "store_test_support.hpp"

namespace firstrace {
namespace {

using test::FileSnapshot;
using test::TempDir;

// Direct SQLite access, as another program (or a script) would have.
class RawDb {
  public:
    explicit RawDb(const std::string& path) { sqlite3_open(path.c_str(), &db_); }
    ~RawDb() { sqlite3_close(db_); }
    void exec(const std::string& sql) {
        char* message = nullptr;
        ASSERT_EQ(sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message), SQLITE_OK)
            << (message ? message : "");
    }
    std::int64_t integer(const std::string& sql) {
        sqlite3_stmt* s = nullptr;
        sqlite3_prepare_v2(db_, sql.c_str(), -1, &s, nullptr);
        std::int64_t v = -1;
        if (s && sqlite3_step(s) == SQLITE_ROW) v = sqlite3_column_int64(s, 0);
        sqlite3_finalize(s);
        return v;
    }
    std::vector<std::string> strings(const std::string& sql) {
        sqlite3_stmt* s = nullptr;
        sqlite3_prepare_v2(db_, sql.c_str(), -1, &s, nullptr);
        std::vector<std::string> out;
        while (s && sqlite3_step(s) == SQLITE_ROW)
            out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(s, 0)));
        sqlite3_finalize(s);
        return out;
    }

  private:
    sqlite3* db_ = nullptr;
};

std::string make_database(const TempDir& dir, const std::string& name = "results.db") {
    std::string path = dir.file(name);
    const test::HandMadeRun h = test::hand_made_run();
    write_run(path, h.trace, h.result);
    return path;
}

// Expects `f` to throw an InputError whose one-line message names `path` and contains `words`.
template <class F>
void expect_input_error(F&& f, const std::string& path, const std::string& words) {
    try {
        f();
        ADD_FAILURE() << "no error for " << path;
    } catch (const InputError& e) {
        const std::string what = e.what();
        EXPECT_EQ(what.rfind(path, 0), 0u) << what;
        EXPECT_NE(what.find(words), std::string::npos) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
}

const std::vector<std::string> kTables = {"runs",
                                          "run_stages",
                                          "processes",
                                          "locations",
                                          "contexts",
                                          "sync_objects",
                                          "variables",
                                          "events",
                                          "access_sites",
                                          "site_ranges",
                                          "graph_edges",
                                          "partitions",
                                          "partition_edges",
                                          "tangles",
                                          "races",
                                          "race_variables",
                                          "race_accesses",
                                          "site_pairs",
                                          "race_site_pairs",
                                          "source_texts",
                                          "source_files",
                                          "race_site_instances",
                                          "heap_blocks",
                                          "held_locks",
                                          "race_orderings",
                                          "race_ordering_steps"};

TEST(Schema, NewDatabaseHasTheApplicationIdVersionTablesAndViews) {
    TempDir dir;
    const std::string path = make_database(dir);
    RawDb db(path);
    EXPECT_EQ(db.integer("PRAGMA application_id"), db::kApplicationId);
    EXPECT_EQ(db.integer("PRAGMA user_version"), db::kSchemaVersion);
    EXPECT_EQ(results_database_schema_version(), db::kSchemaVersion);
    const auto tables =
        db.strings("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    EXPECT_EQ(std::set<std::string>(tables.begin(), tables.end()),
              std::set<std::string>(kTables.begin(), kTables.end()));
    const auto views =
        db.strings("SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name");
    EXPECT_EQ(views, (std::vector<std::string>{"first_races", "race_sites"}));
    EXPECT_EQ(db.integer("PRAGMA foreign_key_check"), -1) << "no dangling references";
}

TEST(Schema, SchemaDocumentDescribesEveryTableColumnAndView) {
    TempDir dir;
    const std::string path = make_database(dir);
    const std::string doc = test::read_file(std::string(FIRSTRACE_SCHEMA_DIR) + "/SCHEMA.md");
    ASSERT_FALSE(doc.empty());
    RawDb db(path);
    for (const std::string& name :
         db.strings("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")) {
        const std::string heading = "### `" + name + "`";
        const auto start = doc.find(heading);
        ASSERT_NE(start, std::string::npos) << name << " is not documented";
        const auto end = doc.find("\n### ", start + heading.size());
        const std::string section =
            doc.substr(start, end == std::string::npos ? std::string::npos : end - start);
        for (const std::string& column :
             db.strings("SELECT name FROM pragma_table_info('" + name + "')"))
            EXPECT_NE(section.find("`" + column + "`"), std::string::npos)
                << name << "." << column << " is not documented";
    }
    EXPECT_NE(doc.find("`user_version` | `" + std::to_string(db::kSchemaVersion) + "`"),
              std::string::npos);
}

TEST(Schema, MigrationsFormAChainUpToTheCurrentVersion) {
    // Version 1 is the first schema: each migration NNN moves NNN-1 to NNN, without gaps.
    int expected = 2;
    for (const db::Migration& m : db::migrations()) {
        EXPECT_EQ(m.version, expected) << m.name;
        ++expected;
    }
    EXPECT_EQ(expected - 1, db::kSchemaVersion);
}

TEST(Schema, EmptyFileBecomesADatabase) {
    TempDir dir;
    const std::string path = dir.file("empty.db");
    test::write_file(path, "");
    const test::HandMadeRun h = test::hand_made_run();
    EXPECT_EQ(write_run(path, h.trace, h.result), 1);
    EXPECT_EQ(ResultsDatabase(path).runs().size(), 1u);
}

// A database of every older version (tests/store/data/schema-vN.sql is schema.sql as version N
// shipped it) is migrated when a run is appended: its tables and columns then equal a new
// database's, and the run reads back as analyze saw it.
class OlderSchema : public testing::TestWithParam<int> {};

TEST_P(OlderSchema, IsMigratedToTheCurrentSchema) {
    const int version = GetParam();
    TempDir dir;
    const std::string old = dir.file("v" + std::to_string(version) + ".db");
    RawDb(old).exec(test::read_file(std::string(FIRSTRACE_STORE_TEST_DATA) + "/schema-v" +
                                    std::to_string(version) + ".sql"));
    ASSERT_EQ(RawDb(old).integer("PRAGMA user_version"), version);
    const test::HandMadeRun h = test::hand_made_run();
    EXPECT_EQ(write_run(old, h.trace, h.result), 1);
    const std::string fresh = make_database(dir);
    auto columns = [](const std::string& path) {
        RawDb db(path);
        std::set<std::string> out;
        for (const std::string& table :
             db.strings("SELECT name FROM sqlite_master WHERE type = 'table'"))
            for (const std::string& column :
                 db.strings("SELECT name FROM pragma_table_info('" + table + "')"))
                out.insert(table + "." + column);
        return out;
    };
    EXPECT_EQ(columns(old), columns(fresh));
    EXPECT_EQ(RawDb(old).integer("PRAGMA user_version"), db::kSchemaVersion);
    EXPECT_EQ(test::json_of(ResultsDatabase(old).read_report(1)),
              test::json_of(make_report_model(h.trace, h.result)));
}

INSTANTIATE_TEST_SUITE_P(EveryOlderVersion, OlderSchema, testing::Range(1, db::kSchemaVersion),
                         [](const testing::TestParamInfo<int>& info) {
                             return "version" + std::to_string(info.param);
                         });

TEST(Schema, RunsAreAppendedWithIncreasingIds) {
    TempDir dir;
    const std::string path = dir.file("r.db");
    const test::HandMadeRun h = test::hand_made_run();
    EXPECT_EQ(write_run(path, h.trace, h.result), 1);
    EXPECT_EQ(write_run(path, h.trace, h.result), 2);
    EXPECT_EQ(write_run(path, h.trace, h.result), 3);
    const ResultsDatabase db(path);
    EXPECT_EQ(db.latest_run(), 3);
    EXPECT_EQ(db.runs().size(), 3u);
}

TEST(Schema, NewerSchemaIsRefusedAndLeftUnchanged) {
    TempDir dir;
    const std::string path = make_database(dir);
    RawDb(path).exec("PRAGMA user_version = " + std::to_string(db::kSchemaVersion + 1));
    const FileSnapshot before = FileSnapshot::of(path);
    const test::HandMadeRun h = test::hand_made_run();
    expect_input_error([&] { write_run(path, h.trace, h.result); }, path,
                       "newer than this firstrace supports");
    expect_input_error([&] { ResultsDatabase db(path); }, path,
                       "newer than this firstrace supports");
    EXPECT_TRUE(FileSnapshot::of(path) == before);
}

TEST(Schema, ForeignDatabasesAreRefusedAndLeftUnchanged) {
    TempDir dir;
    const std::string other = dir.file("other.db");
    RawDb(other).exec("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO "
                      "customers VALUES (1, 'x')");
    const std::string tagged = dir.file("tagged.db");
    RawDb(tagged).exec("PRAGMA application_id = 1234; CREATE TABLE runs (id INTEGER)");
    const test::HandMadeRun h = test::hand_made_run();
    for (const std::string& path : {other, tagged}) {
        const FileSnapshot before = FileSnapshot::of(path);
        expect_input_error([&] { write_run(path, h.trace, h.result); }, path,
                           "not a firstrace results database");
        expect_input_error([&] { ResultsDatabase db(path); }, path,
                           "not a firstrace results database");
        EXPECT_TRUE(FileSnapshot::of(path) == before) << path;
    }
}

TEST(Schema, NonSqliteFilesAreRefusedAndLeftUnchanged) {
    TempDir dir;
    const std::string path = dir.file("notes.db");
    std::string text = "These are my notes, not a database.\n";
    for (int i = 0; i < 200; ++i)
        text += "line " + std::to_string(i) + "\n";
    test::write_file(path, text);
    const FileSnapshot before = FileSnapshot::of(path);
    const test::HandMadeRun h = test::hand_made_run();
    expect_input_error([&] { write_run(path, h.trace, h.result); }, path, "not an SQLite database");
    expect_input_error([&] { ResultsDatabase db(path); }, path, "not an SQLite database");
    EXPECT_TRUE(FileSnapshot::of(path) == before);
    EXPECT_FALSE(std::filesystem::exists(path + "-journal"));
}

TEST(Schema, MissingDatabaseIsAnErrorForReportAndNotCreated) {
    TempDir dir;
    const std::string path = dir.file("missing.db");
    expect_input_error([&] { ResultsDatabase db(path); }, path, "cannot open");
    EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(Schema, FailedCreationLeavesNoFileBehind) {
    TempDir dir;
    const std::string path = dir.file("new.db");
    const test::HandMadeRun h = test::hand_made_run();
    DatabaseWriteOptions options;
    options.progress = [](const std::string&, double f) {
        if (f > 0.3) throw std::runtime_error("interrupted");
    };
    EXPECT_THROW(write_run(path, h.trace, h.result, {}, options), std::runtime_error);
    EXPECT_FALSE(std::filesystem::exists(path));
}

// Writers racing to create one database (separate processes, as two `analyze -o` would be): each
// either stores its run or fails with a message, and no committed run is ever removed.
TEST(Schema, ConcurrentCreatorsNeverRemoveACommittedRun) {
    TempDir dir;
    const test::HandMadeRun h = test::hand_made_run();
    for (int round = 0; round < 5; ++round) {
        const std::string path = dir.file("race" + std::to_string(round) + ".db");
        constexpr int kWriters = 4;
        std::vector<pid_t> children;
        for (int w = 0; w < kWriters; ++w) {
            const pid_t pid = fork();
            ASSERT_GE(pid, 0);
            if (pid == 0) {
                try {
                    write_run(path, h.trace, h.result);
                    _exit(0);
                } catch (...) {
                    _exit(1);
                }
            }
            children.push_back(pid);
        }
        int stored = 0;
        for (const pid_t pid : children) {
            int status = 0;
            waitpid(pid, &status, 0);
            ASSERT_TRUE(WIFEXITED(status));
            if (WEXITSTATUS(status) == 0) ++stored;
        }
        ASSERT_TRUE(std::filesystem::exists(path)) << "round " << round;
        EXPECT_EQ(RawDb(path).integer("SELECT count(*) FROM runs"), stored) << "round " << round;
        EXPECT_GE(stored, 1);
    }
}

// A file that was there before (even empty) is never removed by a writer that failed on it.
TEST(Schema, FailedWriteKeepsAnEmptyFileItDidNotCreate) {
    TempDir dir;
    const std::string path = dir.file("empty.db");
    { std::ofstream touch(path); }
    const test::HandMadeRun h = test::hand_made_run();
    DatabaseWriteOptions options;
    options.progress = [](const std::string&, double f) {
        if (f > 0.3) throw std::runtime_error("interrupted");
    };
    EXPECT_THROW(write_run(path, h.trace, h.result, {}, options), std::runtime_error);
    EXPECT_TRUE(std::filesystem::exists(path));
}

// An index whose entries do not match its table is corruption PRAGMA quick_check does not look
// for; a small database gets the full integrity_check and is refused unchanged.
TEST(Schema, IndexContentCorruptionIsRefusedBeforeAppending) {
    TempDir dir;
    const std::string path = dir.file("index.db");
    const test::HandMadeRun h = test::hand_made_run();
    write_run(path, h.trace, h.result);
    {
        RawDb raw(path);
        raw.exec("CREATE TABLE extra(x, y); CREATE INDEX extra_x ON extra(x);"
                 "INSERT INTO extra VALUES (1, 20), (3, 40);");
        raw.exec("PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = "
                 "'CREATE INDEX extra_x ON extra(y)' WHERE name = 'extra_x';");
    }
    ASSERT_EQ(RawDb(path).strings("PRAGMA quick_check"), std::vector<std::string>{"ok"});
    const FileSnapshot before = FileSnapshot::of(path);
    expect_input_error([&] { write_run(path, h.trace, h.result); }, path, "corrupt");
    EXPECT_EQ(FileSnapshot::of(path), before);
    // The forced checks (`analyze --integrity-check full|quick`): the full one refuses the
    // file whatever its size; the quick one, chosen for speed, does not see this corruption.
    DatabaseWriteOptions full, quick;
    full.integrity_check = IntegrityCheck::Full;
    quick.integrity_check = IntegrityCheck::Quick;
    expect_input_error([&] { write_run(path, h.trace, h.result, {}, full); }, path, "corrupt");
    EXPECT_EQ(FileSnapshot::of(path), before);
    EXPECT_NO_THROW(write_run(path, h.trace, h.result, {}, quick));
}

// Flips bytes inside the b-tree pages (not the header): SQLite sees a malformed database.
void corrupt_pages(const std::string& path) {
    std::string bytes = test::read_file(path);
    ASSERT_GT(bytes.size(), 8192u);
    for (std::size_t i = 4096; i < bytes.size(); i += 97)
        bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
    test::write_file(path, bytes);
}

TEST(Schema, CorruptDatabaseIsRefusedForWritingAndLeftUnchanged) {
    TempDir dir;
    const std::string path = dir.file("corrupt.db");
    {
        // Enough rows for several pages.
        test::write_random_std(dir.file("t.std"), 7, 3000);
        const Trace trace = load_trace(dir.file("t.std"));
        write_run(path, trace, analyze(trace));
    }
    corrupt_pages(path);
    const FileSnapshot before = FileSnapshot::of(path);
    const test::HandMadeRun h = test::hand_made_run();
    expect_input_error([&] { write_run(path, h.trace, h.result); }, path, "corrupt");
    EXPECT_TRUE(FileSnapshot::of(path) == before);
    // Reading reports the damage as an input error (or reads what is intact): never a crash.
    try {
        const ResultsDatabase db(path);
        for (const RunSummary& r : db.runs())
            (void)db.read_report(r.id);
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()).rfind(path, 0), 0u) << e.what();
    }
    EXPECT_TRUE(FileSnapshot::of(path) == before);
}

TEST(Schema, TruncatedDatabaseIsRefusedAndLeftUnchanged) {
    TempDir dir;
    const std::string path = dir.file("cut.db");
    test::write_random_std(dir.file("t.std"), 3, 3000);
    const Trace trace = load_trace(dir.file("t.std"));
    write_run(path, trace, analyze(trace));
    std::string bytes = test::read_file(path);
    test::write_file(path, bytes.substr(0, bytes.size() / 2));
    const FileSnapshot before = FileSnapshot::of(path);
    const test::HandMadeRun h = test::hand_made_run();
    expect_input_error([&] { write_run(path, h.trace, h.result); }, path, "corrupt");
    EXPECT_TRUE(FileSnapshot::of(path) == before);
}

TEST(Schema, FailedWriteLeavesEarlierRunsAndNoHalfRun) {
    TempDir dir;
    const std::string path = make_database(dir);
    const std::string before = test::json_of(ResultsDatabase(path).read_report(1));
    test::write_random_std(dir.file("t.std"), 11, 2000);
    const Trace trace = load_trace(dir.file("t.std"));
    const AnalysisResult result = analyze(trace);
    DatabaseWriteOptions options;
    options.progress = [](const std::string&, double f) {
        if (f > 0.5) throw std::runtime_error("interrupted");
    };
    EXPECT_THROW(write_run(path, trace, result, {}, options), std::runtime_error);
    RawDb raw(path);
    for (const std::string& table : kTables) {
        if (table == "runs" || table == "source_texts") continue;
        EXPECT_EQ(raw.integer("SELECT count(*) FROM " + table + " WHERE run_id <> 1"), 0) << table;
    }
    EXPECT_EQ(raw.integer("SELECT count(*) FROM runs"), 1);
    const ResultsDatabase db(path);
    EXPECT_EQ(test::json_of(db.read_report(1)), before);
    EXPECT_EQ(write_run(path, trace, result), 2);
}

TEST(Schema, KilledWriterLeavesEarlierRunsAndNoHalfRun) {
    TempDir dir;
    const std::string path = make_database(dir);
    const std::string before = test::json_of(ResultsDatabase(path).read_report(1));
    test::write_random_std(dir.file("t.std"), 5, 4000);
    const Trace trace = load_trace(dir.file("t.std"));
    const AnalysisResult result = analyze(trace);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        DatabaseWriteOptions options;
        options.progress = [](const std::string&, double f) {
            if (f > 0.5) raise(SIGKILL); // dies in the middle of the transaction
        };
        write_run(path, trace, result, {}, options);
        _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
        << "the writer was not killed mid-write";
    ASSERT_TRUE(std::filesystem::exists(path + "-journal"))
        << "no hot journal: the kill came too late to test";
    const ResultsDatabase db(path); // rolls the hot journal back
    ASSERT_EQ(db.runs().size(), 1u);
    EXPECT_EQ(test::json_of(db.read_report(1)), before);
    EXPECT_EQ(write_run(path, trace, result), 2);
}

} // namespace
} // namespace firstrace
