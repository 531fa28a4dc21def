// The browser's queries of a results database (firstrace/results_browser.hpp). Every list is
// paged by keyset: a page starts after the key of the last row shown, so that a page costs
// the same anywhere in a run of 10^6 races and nothing scans the run on open.
#include "firstrace/results_browser.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <new>
#include <set>

#include "results_database_schema.hpp"
#include "results_database_sqlite.hpp"

namespace firstrace::browser {

namespace {

using std::int64_t;

// Binds `value` to the named parameter when the statement uses it (the conditions of a filter
// name only the parameters they need).
template <class T> void bind_named(db::Statement& stmt, const char* name, const T& value) {
    if (const int index = stmt.parameter(name)) stmt.bind(index, value);
}

std::string trimmed(const std::string& text) {
    std::size_t begin = 0, end = text.size();
    while (begin < end && std::isspace(static_cast<unsigned char>(text[begin])))
        ++begin;
    while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1])))
        --end;
    return text.substr(begin, end - begin);
}

RaceStatus parse_status(const std::string& name) {
    if (name == "feasible") return RaceStatus::Feasible;
    if (name == "feasible-ec") return RaceStatus::FeasibleEc;
    return RaceStatus::Unvalidated;
}

// "file.c:12", "<unknown>" for a location without file (locations AS l).
const char* const kLocationText = "CASE WHEN l.file IS NULL OR l.file = '' THEN '<unknown>' "
                                  "WHEN l.line > 0 THEN l.file || ':' || l.line ELSE l.file END";

// The browser's order of races (RaceOrderKey): group, then status, then partition and id.
// First partitions have the lowest partition ids (SCHEMA.md), so a race is in a first
// partition when its partition id is at most :last_first.
const char* const kGroupSql = "(CASE WHEN r.partition <= :last_first THEN 0 "
                              "WHEN r.status <> 'unvalidated' THEN 1 ELSE 2 END)";
const char* const kStatusOrderSql =
    "(CASE r.status WHEN 'feasible' THEN 0 WHEN 'feasible-ec' THEN 1 ELSE 2 END)";

const char* const kCountsSql = "count(*), coalesce(sum(r.status = 'feasible'), 0), "
                               "coalesce(sum(r.status = 'feasible-ec'), 0), "
                               "coalesce(sum(r.status = 'unvalidated'), 0), "
                               "coalesce(sum(coalesce(r.actual, 0)), 0)";

StatusCounts read_counts(const db::Statement& stmt, int column) {
    StatusCounts counts;
    counts.races = stmt.int64(column);
    counts.feasible = stmt.int64(column + 1);
    counts.feasible_ec = stmt.int64(column + 2);
    counts.unvalidated = stmt.int64(column + 3);
    counts.actual = stmt.int64(column + 4);
    return counts;
}

// The passes of a race-site scan: the races of one group and one status each, in the
// browser's order.
struct SitePass {
    RaceGroup group;
    RaceStatus status;
};
constexpr SitePass kSitePasses[] = {
    {RaceGroup::FirstPartition, RaceStatus::Feasible},
    {RaceGroup::FirstPartition, RaceStatus::FeasibleEc},
    {RaceGroup::FirstPartition, RaceStatus::Unvalidated},
    {RaceGroup::Validated, RaceStatus::Feasible},
    {RaceGroup::Validated, RaceStatus::FeasibleEc},
    {RaceGroup::Other, RaceStatus::Unvalidated},
};

std::string race_summary_sql(const std::string& where, const std::string& races = "races AS r") {
    const std::string location = kLocationText;
    // The first access site of a side, "file.c:12".
    auto first_site = [&](const char* side) {
        return "(SELECT " + location +
               " FROM race_accesses AS x "
               "JOIN access_sites AS s ON s.run_id = x.run_id AND s.id = x.site "
               "LEFT JOIN locations AS l ON l.run_id = s.run_id AND l.id = s.location "
               "WHERE x.run_id = r.run_id AND x.race_id = r.id AND x.side = '" +
               side + "' ORDER BY x.ordinal LIMIT 1)";
    };
    return "SELECT r.id, r.partition, r.status, r.tangle, r.actual, pa.name, r.a_index, "
           "pb.name, r.b_index, " +
           first_site("a") + ", " + first_site("b") +
           ", (SELECT group_concat(name, char(31)) FROM (SELECT v.name FROM race_variables AS v "
           " WHERE v.run_id = r.run_id AND v.race_id = r.id ORDER BY v.ordinal LIMIT 4)), "
           "(SELECT count(*) FROM race_variables AS v WHERE v.run_id = r.run_id AND v.race_id "
           "= r.id), "
           "(SELECT first FROM partitions AS pp WHERE pp.run_id = r.run_id AND pp.id = "
           "r.partition) "
           "FROM " +
           races +
           " LEFT JOIN processes AS pa ON pa.run_id = r.run_id AND pa.id = r.a_process "
           "LEFT JOIN processes AS pb ON pb.run_id = r.run_id AND pb.id = r.b_process "
           "WHERE " +
           where;
}

std::vector<std::string> split_unit_separated(const std::string& text) {
    std::vector<std::string> parts;
    if (text.empty()) return parts;
    std::size_t start = 0;
    for (std::size_t at; (at = text.find('\x1f', start)) != std::string::npos; start = at + 1)
        parts.push_back(text.substr(start, at - start));
    parts.push_back(text.substr(start));
    return parts;
}

RaceSummary read_race_summary(const db::Statement& stmt) {
    RaceSummary race;
    race.id = stmt.int64(0);
    race.partition = stmt.int64(1);
    race.status = parse_status(stmt.text(2));
    race.tangle = stmt.optional_int64(3);
    if (!stmt.is_null(4)) race.actual = stmt.int64(4) != 0;
    race.thread_a = stmt.text(5);
    race.index_a = stmt.int64(6);
    race.thread_b = stmt.text(7);
    race.index_b = stmt.int64(8);
    race.location_a = stmt.is_null(9) ? "<unknown>" : stmt.text(9);
    race.location_b = stmt.is_null(10) ? "<unknown>" : stmt.text(10);
    race.variables = split_unit_separated(stmt.text(11));
    race.variable_count = stmt.int64(12);
    race.first_partition = stmt.int64(13) != 0;
    return race;
}

// A report's stack as frames, innermost first.
std::vector<Frame> frames_of(const ReportStack& stack) {
    std::vector<Frame> frames;
    if (stack.frames.empty() && stack.known()) {
        const ReportFrame& f = stack.headline;
        frames.push_back(
            {f.file, static_cast<int>(f.line), static_cast<int>(f.column), f.function});
    }
    for (const ReportFrame& f : stack.frames)
        frames.push_back(
            {f.file, static_cast<int>(f.line), static_cast<int>(f.column), f.function});
    return frames;
}

} // namespace

bool RaceFilter::empty() const {
    return statuses.empty() && !actual_only && file.empty() && thread.empty() &&
           trimmed(search).empty();
}

RaceGroup group_of(const RaceSummary& race) {
    if (race.first_partition) return RaceGroup::FirstPartition;
    return race.status == RaceStatus::Unvalidated ? RaceGroup::Other : RaceGroup::Validated;
}

RaceOrderKey order_key_of(const RaceSummary& race) {
    return {static_cast<int>(group_of(race)), static_cast<int>(race.status), race.partition,
            race.id};
}

struct ResultsBrowser::State {
    explicit State(const std::string& path) : database(path), c(database.connection()) {}

    ResultsDatabase database;
    db::Connection& c;

    // What the temporary tables hold (the filter's hit lists are built once per filter).
    int64_t search_run = -1;
    std::string search_text;
    int64_t file_run = -1;
    std::string file_name;
    std::string hit_order; // which hit table temp.hit_order orders
    int64_t race_pairs_run = -1;
    std::optional<bool> instances_of_run_stored;
    int64_t instances_run = -1;
    int64_t first_partitions_run = -1;
    int64_t last_first_partition = -1;
    int64_t unknown_pair_run = -1;
    std::optional<int64_t> unknown_pair_id;

    std::map<std::string, bool> indexes; // index name -> present
    // Last member: its statements are finalized before the connection closes.
    db::StatementCache statements{c};

    db::StatementCache::Lease prepare(const std::string& sql) { return statements.prepare(sql); }
    bool has_index(const std::string& name) {
        const auto it = indexes.find(name);
        if (it != indexes.end()) return it->second;
        auto stmt = prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = :name");
        bind_named(stmt, ":name", name);
        return indexes[name] = stmt.step();
    }

    int64_t last_first(int64_t run);
    std::string race_pairs_table(int64_t run);
    std::optional<int64_t> unknown_pair(int64_t run);
    std::string filter_condition(int64_t run, const RaceFilter& filter);
    void collect_search_hits(int64_t run, const std::string& search);
    std::vector<Frame> location_frames(int64_t run, std::optional<int64_t> location);
    std::vector<Frame> context_stack(int64_t run, std::optional<int64_t> context);
    std::vector<AccessSite> access_sites(int64_t run, int64_t race, const char* side);
    EventDetails event_details(int64_t run, int64_t process, int64_t index);
    std::optional<HeapBlock> heap_block(int64_t run, int64_t race);
    std::vector<std::string> thread_names(int64_t run);
    OrderedAfter ordered_after(int64_t run, const RaceSummary& race);
};

namespace {

// The filter as an SQL condition on races AS r; its parameters are bound by bind_filter().
std::string filter_sql(const RaceFilter& filter) {
    std::vector<std::string> parts;
    if (!filter.statuses.empty()) {
        std::string names;
        for (RaceStatus status : filter.statuses)
            names += std::string(names.empty() ? "'" : ",'") + to_string(status) + "'";
        parts.push_back("r.status IN (" + names + ")");
    }
    if (filter.actual_only) parts.push_back("r.actual = 1");
    if (!filter.thread.empty())
        parts.push_back("(r.a_process IN (SELECT id FROM processes WHERE run_id = :run AND name = "
                        ":thread) OR r.b_process IN (SELECT id FROM processes WHERE run_id = :run "
                        "AND name = :thread))");
    // The races of a file or a search are collected once per filter (filter_condition()).
    // "+r.id": the hit lists are checked per race, never driven into an index of another table
    // (SQLite would otherwise probe race_site_pairs once per hit for every site counted).
    if (!filter.file.empty()) parts.push_back("+r.id IN (SELECT race_id FROM temp.file_hits)");
    if (!trimmed(filter.search).empty())
        parts.push_back("+r.id IN (SELECT race_id FROM temp.search_hits)");
    if (parts.empty()) return "1";
    std::string sql;
    for (const std::string& part : parts)
        sql += (sql.empty() ? "" : " AND ") + part;
    return sql;
}

void bind_filter(db::Statement& stmt, const RaceFilter& filter) {
    bind_named(stmt, ":thread", filter.thread);
}

} // namespace

int64_t ResultsBrowser::State::last_first(int64_t run) {
    if (first_partitions_run != run) {
        auto stmt = prepare(
            "SELECT coalesce(max(id), -1) FROM partitions WHERE run_id = :run AND first = 1");
        bind_named(stmt, ":run", run);
        last_first_partition = stmt.step() ? stmt.int64(0) : -1;
        first_partitions_run = run;
    }
    return last_first_partition;
}

std::string ResultsBrowser::State::race_pairs_table(int64_t run) {
    // Databases of schema version 1 (brought forward in memory) have no race site instances:
    // their race_site_pairs, keyed by site, are copied keyed by race once per run.
    if (instances_run != run) {
        auto stmt = prepare(
            "SELECT EXISTS (SELECT 1 FROM race_site_instances WHERE run_id = :run) OR NOT EXISTS "
            "(SELECT 1 FROM race_site_pairs WHERE run_id = :run)");
        bind_named(stmt, ":run", run);
        instances_of_run_stored = stmt.step() && stmt.int64(0) != 0;
        instances_run = run;
    }
    if (*instances_of_run_stored) return "race_site_instances";
    if (race_pairs_run != run) {
        c.exec("DROP TABLE IF EXISTS temp.race_pairs;"
               "CREATE TEMP TABLE race_pairs (run_id INTEGER, race_id INTEGER, ordinal INTEGER, "
               "pair_id INTEGER, PRIMARY KEY (run_id, race_id, ordinal)) WITHOUT ROWID;");
        auto fill = prepare("INSERT INTO temp.race_pairs SELECT run_id, race_id, pair_id, pair_id "
                            "FROM race_site_pairs WHERE run_id = :run ORDER BY race_id, pair_id");
        bind_named(fill, ":run", run);
        fill.step();
        race_pairs_run = run;
    }
    return "temp.race_pairs";
}

std::optional<int64_t> ResultsBrowser::State::unknown_pair(int64_t run) {
    if (unknown_pair_run != run) {
        auto stmt = prepare("SELECT id FROM site_pairs WHERE run_id = :run AND site_key = "
                            "'<unknown> <-> <unknown>'");
        bind_named(stmt, ":run", run);
        unknown_pair_id = stmt.step() ? std::optional<int64_t>(stmt.int64(0)) : std::nullopt;
        unknown_pair_run = run;
    }
    return unknown_pair_id;
}

std::string ResultsBrowser::State::filter_condition(int64_t run, const RaceFilter& filter) {
    if (!filter.file.empty() && (file_run != run || file_name != filter.file)) {
        // The races of the race sites with a headline location in the file (the file a person
        // fixes), collected once: the status counts and the scan visit them repeatedly.
        c.exec("CREATE TEMP TABLE IF NOT EXISTS file_hits (race_id INTEGER PRIMARY KEY);"
               "DELETE FROM temp.file_hits;");
        auto hits = prepare(
            "INSERT OR IGNORE INTO temp.file_hits SELECT race_id FROM race_site_pairs WHERE "
            "run_id = :run AND pair_id IN (SELECT id FROM site_pairs WHERE run_id = :run AND "
            "(file_1 = :file OR file_2 = :file))");
        bind_named(hits, ":run", run);
        bind_named(hits, ":file", filter.file);
        hits.step();
        file_run = run;
        file_name = filter.file;
        hit_order.clear();
    }
    const std::string search = trimmed(filter.search);
    if (!search.empty() && (search_run != run || search_text != search)) {
        collect_search_hits(run, search);
        search_run = run;
        search_text = search;
        hit_order.clear();
    }
    // The races a search or file filter selects, in (partition, id) order: what the race-site
    // scan walks instead of every race of the run.
    const std::string driver = !search.empty()        ? "temp.search_hits"
                               : !filter.file.empty() ? "temp.file_hits"
                                                      : "";
    if (!driver.empty() && hit_order != driver) {
        c.exec("CREATE TEMP TABLE IF NOT EXISTS hit_order (partition INTEGER, race_id INTEGER, "
               "PRIMARY KEY (partition, race_id)) WITHOUT ROWID; DELETE FROM temp.hit_order;");
        auto order = prepare("INSERT INTO temp.hit_order SELECT r.partition, r.id FROM " + driver +
                             " AS h CROSS JOIN races AS r ON r.run_id = :run AND r.id = h.race_id");
        bind_named(order, ":run", run);
        order.step();
        hit_order = driver;
    }
    return filter_sql(filter);
}

void ResultsBrowser::State::collect_search_hits(int64_t run, const std::string& search) {
    // One pass over each table instead of per-race subqueries: LIKE '%text%' cannot use an
    // index, and evaluating it race by race while paging scans 10^6 races per page.
    std::string like = "%";
    for (char ch : search) {
        if (ch == '\\' || ch == '%' || ch == '_') like += '\\';
        like += ch;
    }
    like += '%';
    std::string digits = search.front() == '#' ? search.substr(1) : search;
    std::optional<int64_t> id;
    if (!digits.empty() && digits.size() < 19 &&
        std::all_of(digits.begin(), digits.end(),
                    [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); }))
        id = std::stoll(digits);

    c.exec("CREATE TEMP TABLE IF NOT EXISTS search_hits (race_id INTEGER PRIMARY KEY);"
           "DELETE FROM temp.search_hits;");
    auto run_sql = [&](const char* sql) {
        auto stmt = prepare(sql);
        bind_named(stmt, ":run", run);
        bind_named(stmt, ":like", like);
        bind_named(stmt, ":id", id.value_or(-1));
        stmt.step();
    };
    if (id)
        run_sql("INSERT OR IGNORE INTO temp.search_hits SELECT id FROM races "
                "WHERE run_id = :run AND id = :id");
    if (id && search.front() == '#') return; // "#12": that race only
    run_sql("INSERT OR IGNORE INTO temp.search_hits SELECT race_id FROM race_variables "
            "WHERE run_id = :run AND name LIKE :like ESCAPE '\\'");
    run_sql("INSERT OR IGNORE INTO temp.search_hits SELECT id FROM races WHERE run_id = :run "
            "AND (a_process IN (SELECT id FROM processes WHERE run_id = :run AND name LIKE :like "
            "ESCAPE '\\') OR b_process IN (SELECT id FROM processes WHERE run_id = :run AND name "
            "LIKE :like ESCAPE '\\')) AND EXISTS (SELECT 1 FROM processes WHERE run_id = :run "
            "AND name LIKE :like ESCAPE '\\')");
    // Files, lines and functions of race sites (site_pairs: one row per pair of headline
    // locations, thousands rather than the millions of access records), then their races
    // through race_site_pairs' key.
    run_sql("INSERT OR IGNORE INTO temp.search_hits SELECT race_id FROM race_site_pairs WHERE "
            "run_id = :run AND pair_id IN (SELECT id FROM site_pairs WHERE run_id = :run AND "
            "(file_1 LIKE :like ESCAPE '\\' OR function_1 LIKE :like ESCAPE '\\' OR file_1 || "
            "':' || line_1 LIKE :like ESCAPE '\\' OR file_2 LIKE :like ESCAPE '\\' OR "
            "function_2 LIKE :like ESCAPE '\\' OR file_2 || ':' || line_2 LIKE :like ESCAPE "
            "'\\'))");
}

ResultsBrowser::ResultsBrowser(std::unique_ptr<State> state) : state_(std::move(state)) {}
ResultsBrowser::~ResultsBrowser() = default;

ResultsBrowser::OpenResult ResultsBrowser::open(const std::string& path) {
    OpenResult result;
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status)) {
        result.error = OpenError::Missing;
        result.message = "The file " + path + " does not exist.";
        return result;
    }
    if (!std::filesystem::is_regular_file(status) || !std::ifstream(path).good()) {
        result.error = OpenError::Unreadable;
        result.message = path + " is not a readable file.";
        return result;
    }
    // Classify before the store's own checks, which say the same in one error type.
    try {
        db::Connection probe(path, db::Connection::Mode::ReadOnly);
        const int64_t application = probe.query_int("PRAGMA application_id");
        const int64_t version = probe.query_int("PRAGMA user_version");
        if (application != db::kApplicationId) {
            result.error = OpenError::Foreign;
            result.message = path + " is not a firstrace results database (it was not written "
                                    "by `firstrace analyze -o`).";
            return result;
        }
        if (version > db::kSchemaVersion || version < 1) {
            result.error = OpenError::TooNew;
            result.message = path + " was written by a newer firstrace (schema version " +
                             std::to_string(version) + "; this browser reads version " +
                             std::to_string(db::kSchemaVersion) + "). Update firstrace-gui.";
            return result;
        }
    } catch (const InputError& e) {
        result.error = OpenError::Corrupt;
        result.message = path + " is not a valid SQLite database or it is damaged (" +
                         std::string(e.what()) + ").";
        return result;
    } catch (const std::bad_alloc&) {
        result.error = OpenError::OutOfMemory;
        result.message = path + " could not be opened: out of memory.";
        return result;
    }
    try {
        auto state = std::make_unique<State>(path);
        // Browsing jumps around a file of hundreds of MiB: map it (no read() per page) and keep
        // more pages (64 MiB) than the default 2 MiB cache.
        state->c.exec("PRAGMA mmap_size = 4294967296; PRAGMA cache_size = -65536;");
        // Touch the run table so that a damaged file fails here rather than while browsing.
        state->c.query_int("SELECT count(*) FROM runs");
        result.browser.reset(new ResultsBrowser(std::move(state)));
    } catch (const InputError& e) {
        result.error = OpenError::Corrupt;
        result.message = path + " is damaged or incomplete (" + std::string(e.what()) + ").";
    } catch (const std::bad_alloc&) {
        // What was allocated is released by now, so the message can be made.
        result.error = OpenError::OutOfMemory;
        result.message = path +
                         " could not be opened: out of memory (it needs more than this process may "
                         "allocate).";
    }
    return result;
}

const std::string& ResultsBrowser::path() const {
    return state_->database.path();
}

std::vector<RunSummary> ResultsBrowser::runs() const {
    return state_->database.runs();
}

std::vector<std::string> ResultsBrowser::thread_names(int64_t run) const {
    return state_->thread_names(run);
}

std::vector<std::string> ResultsBrowser::State::thread_names(int64_t run) {
    auto stmt = prepare("SELECT name FROM processes WHERE run_id = :run ORDER BY id");
    bind_named(stmt, ":run", run);
    std::vector<std::string> names;
    while (stmt.step())
        names.push_back(stmt.text(0));
    return names;
}

std::vector<std::string> ResultsBrowser::race_files(int64_t run) const {
    // The files of access sites' locations: the locations table is small (one row per program
    // location), the access sites are scanned through the (run, location) pairs they name.
    auto stmt = state_->prepare(
        "SELECT DISTINCT l.file FROM locations AS l WHERE l.run_id = :run AND l.file <> '' "
        "AND l.id IN (SELECT location FROM access_sites WHERE run_id = :run) ORDER BY 1");
    bind_named(stmt, ":run", run);
    std::vector<std::string> files;
    while (stmt.step())
        files.push_back(stmt.text(0));
    return files;
}

StatusCounts ResultsBrowser::status_counts(int64_t run, const RaceFilter& filter) const {
    RaceFilter any = filter;
    any.statuses.clear();
    StatusCounts counts;
    if (any.empty()) {
        auto stmt = state_->prepare("SELECT apparent, feasible, feasible_ec, unvalidated, "
                                    "coalesce(actual, 0) FROM runs WHERE id = :run");
        bind_named(stmt, ":run", run);
        if (stmt.step()) counts = read_counts(stmt, 0);
        return counts;
    }
    const std::string condition = state_->filter_condition(run, any);
    // A search or a file filter: count its hits rather than scan every race of the run (CROSS
    // JOIN keeps the hits the outer loop: without statistics SQLite may pick the races).
    const std::string races =
        !trimmed(any.search).empty()
            ? "temp.search_hits AS h CROSS JOIN races AS r ON r.run_id = :run AND "
              "r.id = h.race_id"
        : !any.file.empty() ? "temp.file_hits AS h CROSS JOIN races AS r ON "
                              "r.run_id = :run AND r.id = h.race_id"
                            : "races AS r";
    auto stmt = state_->prepare(std::string("SELECT ") + kCountsSql + " FROM " + races +
                                " WHERE r.run_id = :run AND " + condition);
    bind_named(stmt, ":run", run);
    bind_filter(stmt, any);
    if (stmt.step()) counts = read_counts(stmt, 0);
    return counts;
}

std::vector<RaceSite> ResultsBrowser::race_sites(int64_t run, const RaceFilter& filter,
                                                 RaceSiteCursor& cursor, int limit) const {
    State& s = *state_;
    std::vector<RaceSite> sites;
    const int64_t last_first = s.last_first(run);
    const std::string pairs = s.race_pairs_table(run);
    const std::string condition = s.filter_condition(run, filter);
    constexpr int kBatch = 256;
    // A search or a file filter selects few races: the scan starts from those instead of
    // walking every race of the run in order to find them.
    const bool selective = !trimmed(filter.search).empty() || !filter.file.empty();
    // Without ANALYZE statistics SQLite prefers the (run_id, id) key over the partition index
    // as soon as a filter names a column the index does not cover, and then scans every race
    // of the run for each page.
    const std::string races = selective ? "temp.hit_order AS h CROSS JOIN races AS r ON r.run_id = "
                                          ":run AND r.id = h.race_id"
                                        : "races AS r INDEXED BY races_by_partition";
    const std::string position =
        selective ? "h.partition BETWEEN :lo AND :hi AND (h.partition, h.race_id)"
                  : "r.partition BETWEEN :lo AND :hi AND (r.partition, r.id)";
    const std::string order = selective ? "h.partition, h.race_id" : "r.partition, r.id";
    auto bind_pass = [&](db::Statement& stmt, const SitePass& pass) {
        const bool first = pass.group == RaceGroup::FirstPartition;
        bind_named(stmt, ":run", run);
        bind_named(stmt, ":lo", first ? int64_t{0} : last_first + 1);
        bind_named(stmt, ":hi", first ? last_first : std::numeric_limits<int64_t>::max());
        bind_named(stmt, ":status", std::string(to_string(pass.status)));
        bind_named(stmt, ":partition", cursor.partition);
        bind_named(stmt, ":race", cursor.race);
        bind_named(stmt, ":batch", kBatch);
        bind_filter(stmt, filter);
    };
    auto scan = s.prepare("SELECT r.id, r.partition, x.pair_id FROM (SELECT r.id, r.partition "
                          "FROM " +
                          races + " WHERE r.run_id = :run AND " + position +
                          " > (:partition, :race) AND r.status = :status AND " + condition +
                          " ORDER BY " + order + " LIMIT :batch) AS r LEFT JOIN " + pairs +
                          " AS x ON x.run_id = :run AND x.race_id = r.id "
                          "ORDER BY r.partition, r.id, x.ordinal");
    auto next = s.prepare("SELECT r.partition, r.id FROM " + races + " WHERE r.run_id = :run AND " +
                          position + " > (:partition, :race) AND r.status = :status AND " +
                          condition + " ORDER BY " + order + " LIMIT 1");

    while (!cursor.done && static_cast<int>(sites.size()) < limit) {
        if (cursor.pass >= static_cast<int>(std::size(kSitePasses))) {
            cursor.done = true;
            break;
        }
        const SitePass pass = kSitePasses[cursor.pass];
        if (!filter.statuses.empty() && std::find(filter.statuses.begin(), filter.statuses.end(),
                                                  pass.status) == filter.statuses.end()) {
            ++cursor.pass;
            cursor.partition = cursor.race = -1;
            continue;
        }
        scan.reset();
        bind_pass(scan, pass);
        std::set<int64_t> races_seen;
        while (scan.step()) {
            const int64_t race = scan.int64(0);
            const int64_t partition = scan.int64(1);
            // A race without race site instances counts under the unknown pair (SCHEMA.md).
            const std::optional<int64_t> instance = scan.optional_int64(2);
            const std::optional<int64_t> pair = instance ? instance : s.unknown_pair(run);
            if (!pair) continue;
            races_seen.insert(race);
            cursor.partition = partition;
            cursor.race = race;
            if (!cursor.listed.insert(*pair).second) continue;
            sites.push_back(race_site(run, *pair, race, partition, pass.group));
        }
        if (static_cast<int>(races_seen.size()) < kBatch) {
            // Fewer races than a batch: unless races without any pair were dropped, the pass is
            // over. Ask for the next race directly.
            next.reset();
            bind_pass(next, pass);
            if (!next.step()) {
                ++cursor.pass;
                cursor.partition = cursor.race = -1;
            } else if (races_seen.empty()) {
                // Races without pairs only: step over them.
                cursor.partition = next.int64(0);
                cursor.race = next.int64(1);
            }
        }
    }
    return sites;
}

RaceSite ResultsBrowser::race_site(int64_t run, int64_t pair, int64_t lead_race,
                                   int64_t lead_partition, RaceGroup group) const {
    RaceSite row;
    row.pair_id = pair;
    row.group = group;
    row.lead_race = lead_race;
    row.lead_partition = lead_partition;
    auto site =
        state_->prepare("SELECT site_key, file_1, line_1, function_1, file_2, line_2, function_2 "
                        "FROM site_pairs WHERE run_id = :run AND id = :pair");
    bind_named(site, ":run", run);
    bind_named(site, ":pair", pair);
    if (site.step()) {
        row.key = site.text(0);
        row.first = {site.text(1), static_cast<int>(site.int64(2)), 0, site.text(3)};
        row.second = {site.text(4), static_cast<int>(site.int64(5)), 0, site.text(6)};
    }
    // What the lead race's two sites share, else (schema version 1) its conflicting variables.
    auto variable = state_->prepare(
        "SELECT coalesce((SELECT variable FROM race_site_instances WHERE run_id = :run AND "
        "race_id = :race AND pair_id = :pair ORDER BY ordinal LIMIT 1), (SELECT "
        "group_concat(name, ', ') FROM (SELECT name FROM race_variables WHERE run_id = :run AND "
        "race_id = :race ORDER BY ordinal LIMIT 3)), '')");
    bind_named(variable, ":run", run);
    bind_named(variable, ":race", lead_race);
    bind_named(variable, ":pair", pair);
    if (variable.step()) row.variable = variable.text(0);
    return row;
}

std::vector<StatusCounts>
ResultsBrowser::site_race_counts(int64_t run, const RaceFilter& filter,
                                 const std::vector<int64_t>& pairs) const {
    const std::string condition = state_->filter_condition(run, filter);
    auto stmt = state_->prepare(std::string("SELECT ") + kCountsSql +
                                " FROM race_site_pairs AS x JOIN races AS r ON r.run_id = "
                                "x.run_id AND r.id = x.race_id WHERE x.run_id = :run AND "
                                "x.pair_id = :pair AND " +
                                condition);
    std::vector<StatusCounts> counts;
    counts.reserve(pairs.size());
    for (const int64_t pair : pairs) {
        stmt.reset();
        bind_named(stmt, ":run", run);
        bind_named(stmt, ":pair", pair);
        bind_filter(stmt, filter);
        counts.push_back(stmt.step() ? read_counts(stmt, 0) : StatusCounts());
    }
    return counts;
}

std::vector<RaceSummary> ResultsBrowser::site_races(int64_t run, int64_t pair,
                                                    const RaceFilter& filter,
                                                    const RaceOrderKey& after, int limit) const {
    const std::string group = kGroupSql;
    const std::string status = kStatusOrderSql;
    const std::string condition = state_->filter_condition(run, filter);
    auto stmt = state_->prepare(race_summary_sql(
        "x.run_id = :run AND x.pair_id = :pair AND " + condition + " AND (" + group + ", " +
            status + ", r.partition, r.id) > (:g, :s, :p, :i) ORDER BY " + group + ", " + status +
            ", r.partition, r.id LIMIT :limit",
        "race_site_pairs AS x JOIN races AS r ON r.run_id = x.run_id AND r.id = x.race_id"));
    bind_named(stmt, ":run", run);
    bind_named(stmt, ":pair", pair);
    bind_named(stmt, ":last_first", state_->last_first(run));
    bind_named(stmt, ":g", after.group);
    bind_named(stmt, ":s", after.status);
    bind_named(stmt, ":p", after.partition);
    bind_named(stmt, ":i", after.race);
    bind_named(stmt, ":limit", limit);
    bind_filter(stmt, filter);
    std::vector<RaceSummary> result;
    while (stmt.step())
        result.push_back(read_race_summary(stmt));
    return result;
}

std::vector<int64_t> ResultsBrowser::pairs_of_race(int64_t run, int64_t id) const {
    auto stmt = state_->prepare("SELECT pair_id FROM " + state_->race_pairs_table(run) +
                                " WHERE run_id = :run AND race_id = :race ORDER BY ordinal");
    bind_named(stmt, ":run", run);
    bind_named(stmt, ":race", id);
    std::vector<int64_t> pairs;
    while (stmt.step())
        if (std::find(pairs.begin(), pairs.end(), stmt.int64(0)) == pairs.end())
            pairs.push_back(stmt.int64(0));
    if (pairs.empty())
        if (const auto unknown = state_->unknown_pair(run)) pairs.push_back(*unknown);
    return pairs;
}

std::optional<RaceSummary> ResultsBrowser::race(int64_t run, int64_t id) const {
    auto stmt = state_->prepare(race_summary_sql("r.run_id = :run AND r.id = :id"));
    bind_named(stmt, ":run", run);
    bind_named(stmt, ":id", id);
    if (!stmt.step()) return std::nullopt;
    return read_race_summary(stmt);
}

bool ResultsBrowser::race_matches(int64_t run, int64_t id, const RaceFilter& filter) const {
    const std::string condition = state_->filter_condition(run, filter);
    auto stmt = state_->prepare("SELECT 1 FROM races AS r WHERE r.run_id = :run AND r.id = :id "
                                "AND " +
                                condition);
    bind_named(stmt, ":run", run);
    bind_named(stmt, ":id", id);
    bind_filter(stmt, filter);
    return stmt.step();
}

std::vector<Frame> ResultsBrowser::State::location_frames(int64_t run,
                                                          std::optional<int64_t> location) {
    // A location and the calls inlined at its pc (locations.inlined_into), bounded in case of
    // a damaged chain.
    std::vector<Frame> frames;
    auto stmt = prepare("SELECT file, line, \"column\", function, inlined_into FROM locations "
                        "WHERE run_id = :run AND id = :id");
    for (int depth = 0; location && depth < 32; ++depth) {
        stmt.reset();
        bind_named(stmt, ":run", run);
        bind_named(stmt, ":id", *location);
        if (!stmt.step()) break;
        frames.push_back({stmt.text(0), static_cast<int>(stmt.int64(1)),
                          static_cast<int>(stmt.int64(2)), stmt.text(3)});
        location = stmt.optional_int64(4);
    }
    return frames;
}

std::vector<Frame> ResultsBrowser::State::context_stack(int64_t run,
                                                        std::optional<int64_t> context) {
    // The calling-context tree from the innermost frame to the root (bounded, in case of a
    // damaged tree).
    std::vector<Frame> frames;
    if (!context) return frames;
    auto frame = prepare("SELECT parent, location FROM contexts WHERE run_id = :run AND id = :id");
    int64_t node = *context;
    for (int depth = 0; depth < 128; ++depth) {
        frame.reset();
        bind_named(frame, ":run", run);
        bind_named(frame, ":id", node);
        if (!frame.step()) break;
        const std::optional<int64_t> parent = frame.optional_int64(0);
        const std::vector<Frame> at = location_frames(run, frame.optional_int64(1));
        frames.insert(frames.end(), at.begin(), at.end());
        if (!parent) break;
        node = *parent;
    }
    return frames;
}

std::vector<AccessSite> ResultsBrowser::State::access_sites(int64_t run, int64_t race,
                                                            const char* side) {
    auto stmt = prepare("SELECT s.location, s.kind, s.context FROM race_accesses AS x "
                        "JOIN access_sites AS s ON s.run_id = x.run_id AND s.id = x.site "
                        "WHERE x.run_id = :run AND x.race_id = :race AND x.side = :side "
                        "ORDER BY x.ordinal");
    bind_named(stmt, ":run", run);
    bind_named(stmt, ":race", race);
    bind_named(stmt, ":side", std::string(side));
    std::vector<AccessSite> sites;
    while (stmt.step()) {
        AccessSite site;
        site.kind = stmt.text(1);
        site.stack = location_frames(run, stmt.optional_int64(0));
        if (!site.stack.empty()) site.access = site.stack.front();
        const std::vector<Frame> callers = context_stack(run, stmt.optional_int64(2));
        site.stack.insert(site.stack.end(), callers.begin(), callers.end());
        sites.push_back(std::move(site));
    }
    return sites;
}

EventDetails ResultsBrowser::State::event_details(int64_t run, int64_t process, int64_t index) {
    EventDetails event;
    event.process = process;
    event.index = index;
    auto stmt = prepare(
        "SELECT p.name, e.kind, e.clock_start, e.clock_finish, e.context, p.parent, "
        "(SELECT name FROM processes AS q WHERE q.run_id = p.run_id AND q.id = p.parent) "
        "FROM processes AS p "
        "LEFT JOIN events AS e ON e.run_id = p.run_id AND e.process = p.id AND e.idx = :idx "
        "WHERE p.run_id = :run AND p.id = :process");
    bind_named(stmt, ":run", run);
    bind_named(stmt, ":process", process);
    bind_named(stmt, ":idx", index);
    if (!stmt.step()) return event;
    event.thread = stmt.text(0);
    event.kind = stmt.text(1);
    event.clock_start = stmt.optional_int64(2);
    event.clock_finish = stmt.optional_int64(3);
    event.context = context_stack(run, stmt.optional_int64(4));
    const std::optional<int64_t> parent = stmt.optional_int64(5);
    event.parent_thread = stmt.text(6);

    // Where the thread was created: the parent's fork event naming it (its call location and
    // calling context).
    if (parent) {
        auto fork = prepare("SELECT location, context FROM events WHERE run_id = :run AND process "
                            "= :parent AND kind = 'fork' AND object = :child LIMIT 1");
        bind_named(fork, ":run", run);
        bind_named(fork, ":parent", *parent);
        bind_named(fork, ":child", process);
        if (fork.step()) {
            event.creation_stack = location_frames(run, fork.optional_int64(0));
            const std::vector<Frame> callers = context_stack(run, fork.optional_int64(1));
            event.creation_stack.insert(event.creation_stack.end(), callers.begin(), callers.end());
        }
    }

    // Locks held: the lock objects this process acquired before the event and has not released
    // (events of one process are in program order; a rwlock is a lock object, DESIGN-NOTES).
    auto locks = prepare(
        "SELECT o.name FROM (SELECT object, sum(CASE kind WHEN 'acquire' THEN 1 ELSE -1 END) AS "
        "depth FROM events WHERE run_id = :run AND process = :process AND idx < :idx AND kind IN "
        "('acquire', 'release') AND object IS NOT NULL GROUP BY object) AS h "
        "JOIN sync_objects AS o ON o.run_id = :run AND o.id = h.object "
        "WHERE h.depth > 0 AND o.kind IN ('lock', 'rwlock', 'spinlock') ORDER BY o.id");
    bind_named(locks, ":run", run);
    bind_named(locks, ":process", process);
    bind_named(locks, ":idx", index);
    while (locks.step())
        event.locks_held.push_back({locks.text(0), {}});

    // Schema version 3 stores the locks held at race events with where they were acquired, and
    // each thread's creation stack: prefer them (the names are the reports' names).
    const ReportEvent facts = database.event_facts(run, static_cast<std::uint32_t>(process),
                                                   static_cast<std::uint32_t>(index));
    if (!facts.locks.empty()) {
        event.locks_held.clear();
        for (const ReportHeldLock& lock : facts.locks)
            event.locks_held.push_back({lock.name, frames_of(lock.acquired)});
    }
    if (facts.created.known()) {
        event.parent_thread = facts.parent;
        event.creation_stack = frames_of(facts.created);
    }
    return event;
}

std::optional<HeapBlock> ResultsBrowser::State::heap_block(int64_t run, int64_t race) {
    // The latest block holding the first conflicting byte (SCHEMA.md, heap_blocks).
    auto stmt = prepare(
        "SELECT h.lo, h.hi, (SELECT name FROM processes AS p WHERE p.run_id = h.run_id AND p.id "
        "= h.process), h.location, h.context FROM race_variables AS v JOIN heap_blocks AS h ON "
        "h.run_id = v.run_id AND h.lo <= v.lo AND v.lo < h.hi WHERE v.run_id = :run AND "
        "v.race_id = :race AND v.ordinal = 0 ORDER BY h.id DESC LIMIT 1");
    bind_named(stmt, ":run", run);
    bind_named(stmt, ":race", race);
    if (!stmt.step()) return std::nullopt;
    HeapBlock block;
    block.lo = stmt.int64(0);
    block.hi = stmt.int64(1);
    block.thread = stmt.text(2);
    block.allocation_stack = location_frames(run, stmt.optional_int64(3));
    const std::vector<Frame> callers = context_stack(run, stmt.optional_int64(4));
    block.allocation_stack.insert(block.allocation_stack.end(), callers.begin(), callers.end());
    return block;
}

OrderedAfter ResultsBrowser::State::ordered_after(int64_t run, const RaceSummary& race) {
    OrderedAfter after;
    if (race.first_partition) return after;
    // The partitions directly before the race's one in the partition DAG (Def 8.2).
    auto stmt = prepare("SELECT partition_id FROM partition_edges WHERE run_id = :run AND "
                        "after_id = :partition ORDER BY partition_id");
    bind_named(stmt, ":run", run);
    bind_named(stmt, ":partition", race.partition);
    while (stmt.step())
        after.partitions.push_back(stmt.int64(0));
    // Schema version 3: the race the analysis found it ordered after and the chain (Def 8.1).
    if (const auto stored = database.ordered_after(run, static_cast<std::uint32_t>(race.id))) {
        after.race = stored->race;
        after.stored = true;
        const std::vector<std::string> names = thread_names(run);
        for (const ReportOrderingStep& step : stored->chain) {
            const auto it = std::find(names.begin(), names.end(), step.thread);
            const int64_t process = it == names.end() ? -1 : it - names.begin();
            after.chain.push_back({EventKey{process, step.index}, step.thread, step.via, step.kind,
                                   step.object, frames_of(step.at)});
        }
        return after;
    }
    if (!after.partitions.empty()) {
        // The earliest race of the first partition before it, in the browser's order, stands
        // for "the race it is ordered after" when the database names none.
        auto lead = prepare("SELECT r.id FROM races AS r INDEXED BY races_by_partition WHERE "
                            "r.run_id = :run AND r.partition = :partition ORDER BY (CASE "
                            "r.status WHEN 'feasible' THEN 0 WHEN 'feasible-ec' THEN 1 ELSE 2 "
                            "END), r.id LIMIT 1");
        bind_named(lead, ":run", run);
        bind_named(lead, ":partition", after.partitions.front());
        if (lead.step()) after.race = lead.int64(0);
    }
    return after;
}

std::optional<RaceDetails> ResultsBrowser::race_details(int64_t run, int64_t id) const {
    State& s = *state_;
    auto summary = race(run, id);
    if (!summary) return std::nullopt;
    RaceDetails details;
    details.summary = *summary;
    auto stmt = s.prepare("SELECT a_process, a_index, b_process, b_index FROM races WHERE run_id "
                          "= :run AND id = :id");
    bind_named(stmt, ":run", run);
    bind_named(stmt, ":id", id);
    if (!stmt.step()) return std::nullopt;
    details.a = s.event_details(run, stmt.int64(0), stmt.int64(1));
    details.b = s.event_details(run, stmt.int64(2), stmt.int64(3));
    auto vars = s.prepare(
        "SELECT name FROM race_variables WHERE run_id = :run AND race_id = :id ORDER BY ordinal");
    bind_named(vars, ":run", run);
    bind_named(vars, ":id", id);
    while (vars.step())
        details.variables.push_back(vars.text(0));
    auto memory = s.prepare("SELECT variable FROM race_site_instances WHERE run_id = :run AND "
                            "race_id = :id ORDER BY ordinal LIMIT 1");
    bind_named(memory, ":run", run);
    bind_named(memory, ":id", id);
    if (memory.step()) details.memory = memory.text(0);
    if (details.memory.empty())
        for (const std::string& variable : details.variables)
            details.memory += (details.memory.empty() ? "" : ", ") + variable;
    details.heap_block = s.heap_block(run, id);
    details.sites_a = s.access_sites(run, id, "a");
    details.sites_b = s.access_sites(run, id, "b");
    details.ordered_after = s.ordered_after(run, *summary);
    return details;
}

std::optional<std::string> ResultsBrowser::source_text(int64_t run, const std::string& file) const {
    return state_->database.source_text(run, file);
}

History ResultsBrowser::history(int64_t run, int64_t id, int before, int after,
                                std::optional<int64_t> ordered_after) const {
    State& s = *state_;
    History history;
    history.focus_race = id;
    auto race_events = s.prepare("SELECT a_process, a_index, b_process, b_index, tangle FROM "
                                 "races WHERE run_id = :run AND id = :id");
    bind_named(race_events, ":run", run);
    bind_named(race_events, ":id", id);
    if (!race_events.step()) return history;
    const EventKey a{race_events.int64(0), race_events.int64(1)};
    const EventKey b{race_events.int64(2), race_events.int64(3)};
    history.focus_events = {a, b};
    history.focus_tangle = race_events.optional_int64(4);
    // The events of the race it is ordered after get windows too.
    std::vector<EventKey> focus{a, b};
    if (ordered_after) {
        race_events.reset();
        bind_named(race_events, ":run", run);
        bind_named(race_events, ":id", *ordered_after);
        if (race_events.step()) {
            const EventKey ea{race_events.int64(0), race_events.int64(1)};
            const EventKey eb{race_events.int64(2), race_events.int64(3)};
            history.ordered_after_events = {ea, eb};
            history.ordered_after_race = ordered_after;
            // The stored chain, when the database names this race as the one it is after.
            RaceSummary race{};
            race.id = id;
            const OrderedAfter stored = s.ordered_after(run, race);
            // Its first path (from event a of that race): the history draws one chain.
            if (stored.stored && stored.race == ordered_after)
                for (const OrderingStep& step : stored.chain) {
                    if (step.via == "start" && !history.ordered_after_chain.empty()) break;
                    history.ordered_after_chain.push_back(step.event);
                }
            focus.push_back(ea);
            focus.push_back(eb);
        }
    }

    // Processes and their event counts.
    std::map<int64_t, HistoryLane> all;
    int64_t total_events = 0;
    {
        auto processes = s.prepare(
            "SELECT id, name, event_count FROM processes WHERE run_id = :run ORDER BY id");
        bind_named(processes, ":run", run);
        while (processes.step()) {
            HistoryLane lane;
            lane.process = processes.int64(0);
            lane.name = processes.text(1);
            lane.event_count = processes.int64(2);
            lane.first_index = 0;
            lane.last_index = lane.event_count - 1;
            total_events += lane.event_count;
            all.emplace(lane.process, lane);
        }
    }

    constexpr int64_t kWholeRunLimit = 160; // show the whole run when it is this small
    constexpr int64_t kMaxLaneSpan = 14;    // events per lane of another process
    constexpr int64_t kMaxJoinedSpan = 40;  // two windows of one lane closer than this join
    std::map<int64_t, HistoryLane> lanes;
    auto window = [&](const EventKey& key) {
        HistoryLane lane = all.count(key.process) ? all.at(key.process) : HistoryLane{};
        lane.process = key.process;
        lane.first_index = std::max<int64_t>(0, key.index - before);
        lane.last_index = std::min<int64_t>(lane.event_count - 1, key.index + after);
        return lane;
    };
    auto in_window = [&](const EventKey& key) {
        const auto it = lanes.find(key.process);
        return it != lanes.end() && key.index >= it->second.first_index &&
               key.index <= it->second.last_index;
    };

    if (total_events <= kWholeRunLimit) {
        for (const auto& [process, lane] : all)
            if (lane.event_count > 0) lanes.emplace(process, lane);
    } else {
        for (const EventKey& key : focus) {
            const HistoryLane other = window(key);
            const auto [it, inserted] = lanes.emplace(key.process, other);
            if (inserted) continue;
            // One window per lane: spanning both events when they are close, else the first.
            HistoryLane& lane = it->second;
            if (std::max(lane.last_index, other.last_index) -
                    std::min(lane.first_index, other.first_index) <
                kMaxJoinedSpan) {
                lane.first_index = std::min(lane.first_index, other.first_index);
                lane.last_index = std::max(lane.last_index, other.last_index);
            }
        }
        // The processes the windows synchronize with, around the events they touch: the
        // ordering edges leaving or entering each window (one indexed range per window).
        auto partners =
            s.prepare("SELECT from_process, from_index, to_process, to_index FROM graph_edges "
                      "WHERE run_id = :run AND kind = 'ordering' AND ((from_process = :p AND "
                      "from_index BETWEEN :lo AND :hi) OR (to_process = :p AND to_index BETWEEN "
                      ":lo AND :hi))");
        std::map<int64_t, std::pair<int64_t, int64_t>> touched;
        for (const auto& [process, lane] : lanes) {
            partners.reset();
            bind_named(partners, ":run", run);
            bind_named(partners, ":p", process);
            bind_named(partners, ":lo", lane.first_index);
            bind_named(partners, ":hi", lane.last_index);
            while (partners.step()) {
                for (const EventKey key : {EventKey{partners.int64(0), partners.int64(1)},
                                           EventKey{partners.int64(2), partners.int64(3)}}) {
                    if (lanes.count(key.process)) continue;
                    const auto [it, inserted] =
                        touched.emplace(key.process, std::pair{key.index, key.index});
                    if (!inserted)
                        it->second = {std::min(it->second.first, key.index),
                                      std::max(it->second.second, key.index)};
                }
            }
        }
        for (const auto& [process, range] : touched) {
            HistoryLane lane = all.count(process) ? all.at(process) : HistoryLane{};
            lane.process = process;
            lane.first_index = std::max<int64_t>(0, range.first - 1);
            lane.last_index = std::min<int64_t>(lane.event_count - 1, range.second + 1);
            if (lane.last_index - lane.first_index + 1 > kMaxLaneSpan)
                lane.first_index = lane.last_index - kMaxLaneSpan + 1;
            lanes.emplace(process, lane);
        }
    }
    for (const auto& [process, lane] : lanes)
        history.lanes.push_back(lane);

    // Events with their object names and call locations, one indexed range per lane.
    auto events = s.prepare(
        std::string("SELECT e.process, e.idx, e.kind, e.clock_start, e.clock_finish, "
                    "CASE WHEN e.kind IN ('fork', 'join') THEN (SELECT name FROM processes AS p "
                    "  WHERE p.run_id = e.run_id AND p.id = e.object) "
                    "ELSE (SELECT name FROM sync_objects AS o WHERE o.run_id = e.run_id AND "
                    "o.id = e.object) END, "
                    "(SELECT ") +
        kLocationText +
        " FROM locations AS l WHERE l.run_id = e.run_id AND l.id = e.location) "
        "FROM events AS e WHERE e.run_id = :run AND e.process = :p AND e.idx BETWEEN :lo AND "
        ":hi ORDER BY e.idx");
    // Access sites of the computation events (access_sites_by_event).
    auto sites = s.prepare(std::string("SELECT s.event_index, s.kind, ") + kLocationText +
                           " FROM access_sites AS s LEFT JOIN locations AS l ON l.run_id = "
                           "s.run_id AND l.id = s.location WHERE s.run_id = :run AND s.process = "
                           ":p AND s.event_index BETWEEN :lo AND :hi ORDER BY s.event_index, s.id");
    std::map<std::pair<int64_t, int64_t>, std::size_t> event_row;
    for (const HistoryLane& lane : history.lanes) {
        for (db::Statement* stmt : {&events, &sites}) {
            stmt->reset();
            bind_named(*stmt, ":run", run);
            bind_named(*stmt, ":p", lane.process);
            bind_named(*stmt, ":lo", lane.first_index);
            bind_named(*stmt, ":hi", lane.last_index);
        }
        while (events.step()) {
            HistoryEvent event;
            event.key = {events.int64(0), events.int64(1)};
            event.kind = events.text(2);
            event.clock_start = events.optional_int64(3);
            event.clock_finish = events.optional_int64(4);
            event.object = events.text(5);
            event.location = events.text(6);
            event_row[{event.key.process, event.key.index}] = history.events.size();
            history.events.push_back(std::move(event));
        }
        while (sites.step()) {
            const auto it = event_row.find({lane.process, sites.int64(0)});
            if (it == event_row.end()) continue;
            history.events[it->second].accesses.push_back({sites.text(2), sites.text(1)});
        }
    }
    auto shown = [&](const EventKey& key) {
        return event_row.count({key.process, key.index}) != 0;
    };

    // Edges with both ends shown, one indexed range per lane of their source.
    auto edges = s.prepare("SELECT kind, from_process, from_index, to_process, to_index, "
                           "transitive FROM graph_edges WHERE run_id = :run AND from_process = "
                           ":p AND from_index BETWEEN :lo AND :hi");
    for (const HistoryLane& lane : history.lanes) {
        edges.reset();
        bind_named(edges, ":run", run);
        bind_named(edges, ":p", lane.process);
        bind_named(edges, ":lo", lane.first_index);
        bind_named(edges, ":hi", lane.last_index);
        while (edges.step()) {
            HistoryEdge edge;
            const std::string kind = edges.text(0);
            edge.kind = kind == "shared-data"     ? HistoryEdgeKind::SharedData
                        : kind == "event-control" ? HistoryEdgeKind::EventControl
                                                  : HistoryEdgeKind::Synchronization;
            edge.from = {edges.int64(1), edges.int64(2)};
            edge.to = {edges.int64(3), edges.int64(4)};
            edge.transitive = edges.int64(5) != 0;
            if (shown(edge.from) && shown(edge.to)) history.edges.push_back(edge);
        }
    }

    // Races with both events shown: the selected one and the one it is ordered after first,
    // then the others of the windows (races_by_event: one indexed range per lane of side a).
    auto read_race = [](const db::Statement& stmt) {
        HistoryRace race;
        race.id = stmt.int64(0);
        race.a = {stmt.int64(1), stmt.int64(2)};
        race.b = {stmt.int64(3), stmt.int64(4)};
        race.status = parse_status(stmt.text(5));
        race.tangle = stmt.optional_int64(6);
        return race;
    };
    auto by_id = s.prepare("SELECT id, a_process, a_index, b_process, b_index, status, tangle "
                           "FROM races WHERE run_id = :run AND id = :id");
    for (const std::optional<int64_t> wanted : {std::optional<int64_t>(id), ordered_after}) {
        if (!wanted) continue;
        by_id.reset();
        bind_named(by_id, ":run", run);
        bind_named(by_id, ":id", *wanted);
        if (!by_id.step()) continue;
        const HistoryRace race = read_race(by_id);
        if (race.id == id || (in_window(race.a) && in_window(race.b)))
            history.races.push_back(race);
    }
    constexpr int kOtherRacesLimit = 400;
    // Databases written before the index existed: the races of the focus race's partition
    // (through the partition index) rather than a scan of every race per click.
    const std::string races_of_lane =
        s.has_index("races_by_event")
            ? "FROM races INDEXED BY races_by_event WHERE run_id = :run AND "
            : "FROM races INDEXED BY races_by_partition WHERE run_id = :run AND partition = "
              "(SELECT partition FROM races WHERE run_id = :run AND id = :id) AND ";
    auto others = s.prepare("SELECT id, a_process, a_index, b_process, b_index, status, tangle " +
                            races_of_lane +
                            "a_process = :p AND a_index BETWEEN :lo AND :hi AND id NOT IN (:id, "
                            ":after) LIMIT :limit");
    int listed = 0;
    for (const HistoryLane& lane : history.lanes) {
        others.reset();
        bind_named(others, ":run", run);
        bind_named(others, ":p", lane.process);
        bind_named(others, ":lo", lane.first_index);
        bind_named(others, ":hi", lane.last_index);
        bind_named(others, ":id", id);
        bind_named(others, ":after", ordered_after.value_or(-1));
        bind_named(others, ":limit", kOtherRacesLimit - listed);
        while (others.step() && listed < kOtherRacesLimit) {
            const HistoryRace race = read_race(others);
            if (!in_window(race.b)) continue;
            history.races.push_back(race);
            ++listed;
        }
    }
    std::sort(history.races.begin() + (history.races.empty() ? 0 : 1), history.races.end(),
              [&](const HistoryRace& x, const HistoryRace& y) {
                  const bool xa = ordered_after && x.id == *ordered_after;
                  const bool ya = ordered_after && y.id == *ordered_after;
                  return xa != ya ? xa : x.id < y.id;
              });
    return history;
}

} // namespace firstrace::browser
