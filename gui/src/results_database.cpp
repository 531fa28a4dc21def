#include "results_database.hpp"

#include "order_chain.hpp"

#include <QFileInfo>
#include <QHash>
#include <QMap>
#include <QSet>

#include <sqlite3.h>

#include <algorithm>
#include <limits>

namespace firstrace::gui {

namespace {

// The race filter as an SQL condition on races AS r; parameters bound by bindFilter().
QString filterSql(const RaceFilter& filter) {
    QStringList parts;
    if (!filter.statuses.isEmpty()) {
        QStringList names;
        for (RaceStatus status : filter.statuses)
            names << QLatin1Char('\'') + statusName(status) + QLatin1Char('\'');
        parts << QStringLiteral("r.status IN (%1)").arg(names.join(QLatin1Char(',')));
    }
    if (filter.actualOnly) parts << QStringLiteral("r.actual = 1");
    if (!filter.thread.isEmpty())
        parts << QStringLiteral("(r.a_process IN (SELECT id FROM processes WHERE run_id = :run "
                                "AND name = :thread) OR r.b_process IN (SELECT id FROM processes "
                                "WHERE run_id = :run AND name = :thread))");
    // The races with an access site in the file are collected once per file (fileHits()).
    if (!filter.file.isEmpty())
        parts << QStringLiteral("r.id IN (SELECT race_id FROM temp.file_hits)");
    // The races matching the search text are collected once per search (searchHits()).
    if (!filter.search.trimmed().isEmpty())
        parts << QStringLiteral("r.id IN (SELECT race_id FROM temp.search_hits)");
    return parts.isEmpty() ? QStringLiteral("1") : parts.join(QStringLiteral(" AND "));
}

void bindFilter(SqliteStatement& stmt, const RaceFilter& filter) {
    stmt.bind(":thread", filter.thread);
    stmt.bind(":file", filter.file);
}

// "file.c:12", "<unknown>" for a location without file.
const char* kLocationText = "CASE WHEN l.file IS NULL OR l.file = '' THEN '<unknown>' "
                            "WHEN l.line > 0 THEN l.file || ':' || l.line ELSE l.file END";

QString raceSummarySql(const QString& where, const QString& races = QStringLiteral("races AS r")) {
    const QString location = QString::fromLatin1(kLocationText);
    return QStringLiteral(
               "SELECT r.id, r.partition, r.status, r.tangle, r.actual, pa.name, r.a_index, "
               "pb.name, r.b_index, "
               "(SELECT %1 FROM race_accesses AS x "
               " JOIN access_sites AS s ON s.run_id = x.run_id AND s.id = x.site "
               " LEFT JOIN locations AS l ON l.run_id = s.run_id AND l.id = s.location "
               " WHERE x.run_id = r.run_id AND x.race_id = r.id AND x.side = 'a' "
               " ORDER BY x.ordinal LIMIT 1), "
               "(SELECT %1 FROM race_accesses AS x "
               " JOIN access_sites AS s ON s.run_id = x.run_id AND s.id = x.site "
               " LEFT JOIN locations AS l ON l.run_id = s.run_id AND l.id = s.location "
               " WHERE x.run_id = r.run_id AND x.race_id = r.id AND x.side = 'b' "
               " ORDER BY x.ordinal LIMIT 1), "
               "(SELECT group_concat(name, ', ') FROM (SELECT v.name FROM race_variables AS v "
               " WHERE v.run_id = r.run_id AND v.race_id = r.id ORDER BY v.ordinal LIMIT 4)), "
               "(SELECT count(*) FROM race_variables AS v WHERE v.run_id = r.run_id AND v.race_id "
               "= r.id), "
               "(SELECT first FROM partitions AS pp WHERE pp.run_id = r.run_id AND pp.id = "
               "r.partition) "
               "FROM %3 "
               "LEFT JOIN processes AS pa ON pa.run_id = r.run_id AND pa.id = r.a_process "
               "LEFT JOIN processes AS pb ON pb.run_id = r.run_id AND pb.id = r.b_process "
               "WHERE %2")
        .arg(location, where, races);
}

RaceSummary readRaceSummary(const SqliteStatement& stmt) {
    RaceSummary race;
    race.id = stmt.integer(0);
    race.partition = stmt.integer(1);
    race.status = parseRaceStatus(stmt.text(2)).value_or(RaceStatus::Unvalidated);
    race.tangle = stmt.optionalInteger(3);
    if (!stmt.isNull(4)) race.actual = stmt.integer(4) != 0;
    race.threadA = stmt.text(5);
    race.indexA = stmt.integer(6);
    race.threadB = stmt.text(7);
    race.indexB = stmt.integer(8);
    race.locationA = stmt.isNull(9) ? QStringLiteral("<unknown>") : stmt.text(9);
    race.locationB = stmt.isNull(10) ? QStringLiteral("<unknown>") : stmt.text(10);
    race.variables = stmt.text(11);
    const qint64 variables = stmt.integer(12);
    if (variables > 4) race.variables += QStringLiteral(", \u2026 (%1)").arg(variables);
    race.firstPartition = stmt.integer(13) != 0;
    return race;
}

QString baseName(const QString& file) {
    const int slash = file.lastIndexOf(QLatin1Char('/'));
    return slash < 0 ? file : file.mid(slash + 1);
}

} // namespace

ResultsDatabase::ResultsDatabase(const QString& path)
    : connection_(path, SqliteConnection::Mode::ReadOnly) {
    // Browsing jumps around a file of hundreds of MiB: map it (no read() per page) and keep
    // more pages (64 MiB) than the default 2 MiB cache.
    connection_.execute(
        QStringLiteral("PRAGMA mmap_size = 4294967296; PRAGMA cache_size = -65536;"));
}

QString ResultsDatabase::filterCondition(qint64 run, const RaceFilter& filter) const {
    if (!filter.file.isEmpty() && (fileRun_ != run || fileName_ != filter.file)) {
        // One pass over race_accesses instead of a lookup chain per race: the status counts
        // and selective filters visit every race of the run.
        connection_.execute(QStringLiteral(
            "CREATE TEMP TABLE IF NOT EXISTS file_hits (race_id INTEGER PRIMARY KEY);"
            "DELETE FROM temp.file_hits;"));
        // A race of a race site with a headline location in the file: through site_pairs and
        // its instances (race_site_pairs is keyed by site), the file a person fixes.
        auto hits = connection_.prepare(QStringLiteral(
            "INSERT OR IGNORE INTO temp.file_hits SELECT race_id FROM race_site_pairs WHERE "
            "run_id = :run AND pair_id IN (SELECT id FROM site_pairs WHERE run_id = :run AND "
            "(file_1 = :file OR file_2 = :file))"));
        hits.bind(":run", run).bind(":file", filter.file);
        hits.step();
        fileRun_ = run;
        fileName_ = filter.file;
        hitOrder_.clear();
    }
    const QString search = filter.search.trimmed();
    if (!search.isEmpty() && (searchRun_ != run || searchText_ != search)) {
        collectSearchHits(run, search);
        searchRun_ = run;
        searchText_ = search;
        hitOrder_.clear();
    }
    // The races a search or file filter selects, in (partition, id) order: what the race-site
    // scan walks instead of every race of the run.
    const QString driver = !search.isEmpty()        ? QStringLiteral("temp.search_hits")
                           : !filter.file.isEmpty() ? QStringLiteral("temp.file_hits")
                                                    : QString();
    if (!driver.isEmpty() && hitOrder_ != driver) {
        connection_.execute(QStringLiteral(
            "CREATE TEMP TABLE IF NOT EXISTS hit_order (partition INTEGER, race_id INTEGER, "
            "PRIMARY KEY (partition, race_id)) WITHOUT ROWID; DELETE FROM temp.hit_order;"));
        auto order = connection_.prepare(
            QStringLiteral("INSERT INTO temp.hit_order SELECT r.partition, r.id FROM %1 AS h "
                           "JOIN races AS r ON r.run_id = :run AND r.id = h.race_id")
                .arg(driver));
        order.bind(":run", run);
        order.step();
        hitOrder_ = driver;
    }
    return filterSql(filter);
}

void ResultsDatabase::collectSearchHits(qint64 run, const QString& search) const {
    // One pass over each table instead of per-race subqueries: LIKE '%text%' cannot use an
    // index, and evaluating it race by race while paging partitions scans 10^6 races per page.
    QString escaped = search;
    escaped.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
        .replace(QLatin1Char('%'), QStringLiteral("\\%"))
        .replace(QLatin1Char('_'), QStringLiteral("\\_"));
    const QString like = QLatin1Char('%') + escaped + QLatin1Char('%');
    bool isId = false;
    QString digits = search;
    if (digits.startsWith(QLatin1Char('#'))) digits.remove(0, 1);
    const qint64 id = digits.toLongLong(&isId);

    connection_.execute(
        QStringLiteral("CREATE TEMP TABLE IF NOT EXISTS search_hits (race_id INTEGER PRIMARY KEY);"
                       "CREATE TEMP TABLE IF NOT EXISTS search_sites (site INTEGER PRIMARY KEY);"
                       "DELETE FROM temp.search_hits; DELETE FROM temp.search_sites;"));
    auto exec = [&](const QString& sql) {
        auto stmt = connection_.prepare(sql);
        stmt.bind(":run", run).bind(":like", like).bind(":id", isId ? id : -1);
        stmt.step();
    };
    if (isId)
        exec(QStringLiteral("INSERT OR IGNORE INTO temp.search_hits SELECT id FROM races "
                            "WHERE run_id = :run AND id = :id"));
    exec(QStringLiteral("INSERT OR IGNORE INTO temp.search_hits SELECT race_id FROM race_variables "
                        "WHERE run_id = :run AND name LIKE :like ESCAPE '\\'"));
    exec(QStringLiteral(
        "INSERT OR IGNORE INTO temp.search_hits SELECT id FROM races WHERE run_id = :run "
        "AND (a_process IN (SELECT id FROM processes WHERE run_id = :run AND name LIKE :like "
        "ESCAPE '\\') "
        "OR b_process IN (SELECT id FROM processes WHERE run_id = :run AND name LIKE :like ESCAPE "
        "'\\')) "
        "AND EXISTS (SELECT 1 FROM processes WHERE run_id = :run AND name LIKE :like ESCAPE "
        "'\\')"));
    exec(QStringLiteral(
        "INSERT INTO temp.search_sites SELECT s.id FROM access_sites AS s "
        "JOIN locations AS l ON l.run_id = s.run_id AND l.id = s.location "
        "WHERE s.run_id = :run AND l.id IN (SELECT id FROM locations WHERE run_id = :run AND "
        "(file LIKE :like ESCAPE '\\' OR function LIKE :like ESCAPE '\\' "
        "OR file || ':' || line LIKE :like ESCAPE '\\'))"));
    exec(QStringLiteral("INSERT OR IGNORE INTO temp.search_hits SELECT race_id FROM race_accesses "
                        "WHERE run_id = :run AND site IN (SELECT site FROM temp.search_sites) "
                        "AND EXISTS (SELECT 1 FROM temp.search_sites)"));
}

QString ResultsDatabase::racesByPartition() const {
    // Without ANALYZE statistics SQLite prefers the (run_id, id) primary key over the partition
    // index as soon as a filter names a column the index does not cover, and then scans every
    // race of the run for each partition. The index is part of schema version 1.
    return partitionIndex_ ? QStringLiteral("races AS r INDEXED BY races_by_partition")
                           : QStringLiteral("races AS r");
}

ResultsDatabase::OpenResult ResultsDatabase::open(const QString& path) {
    OpenResult result;
    const QFileInfo info(path);
    if (!info.exists()) {
        result.error = OpenError::Missing;
        result.message = QStringLiteral("The file %1 does not exist.").arg(path);
        return result;
    }
    if (!info.isFile() || !info.isReadable()) {
        result.error = OpenError::Unreadable;
        result.message = QStringLiteral("%1 is not a readable file.").arg(path);
        return result;
    }
    try {
        std::unique_ptr<ResultsDatabase> db(new ResultsDatabase(path));
        auto pragma = [&](const char* name) {
            auto stmt =
                db->connection_.prepare(QStringLiteral("PRAGMA %1").arg(QLatin1String(name)));
            return stmt.step() ? stmt.integer(0) : 0;
        };
        const qint64 application = pragma("application_id");
        const qint64 version = pragma("user_version");
        if (application != kApplicationId) {
            result.error = OpenError::Foreign;
            result.message = QStringLiteral("%1 is not a firstrace results database (it was not "
                                            "written by `firstrace analyze -o`).")
                                 .arg(path);
            return result;
        }
        if (version > kSchemaVersion || version < 1) {
            result.error = OpenError::TooNew;
            result.message =
                QStringLiteral("%1 was written by a newer firstrace (schema version %2; "
                               "this browser reads version %3). Update firstrace-gui.")
                    .arg(path)
                    .arg(version)
                    .arg(kSchemaVersion);
            return result;
        }
        for (const char* table :
             {"runs", "processes", "events", "races", "partitions", "race_accesses",
              "race_variables", "graph_edges", "source_files", "site_pairs", "race_site_pairs"}) {
            if (!db->connection_.hasTable(QLatin1String(table))) {
                result.error = OpenError::Corrupt;
                result.message = QStringLiteral("%1 is damaged or incomplete: it has no table `%2` "
                                                "(schema version %3).")
                                     .arg(path, QLatin1String(table))
                                     .arg(version);
                return result;
            }
        }
        // Touch the run table so that a damaged file fails here rather than while browsing.
        auto stmt = db->connection_.prepare(QStringLiteral("SELECT count(*) FROM runs"));
        stmt.step();
        auto index = db->connection_.prepare(
            QStringLiteral("SELECT 1 FROM pragma_index_info('races_by_partition') WHERE seqno = 1 "
                           "AND name = 'partition'"));
        db->partitionIndex_ = index.step();
        db->schemaVersion_ = int(version);
        db->detectFeatures();
        result.database = std::move(db);
    } catch (const DatabaseError& e) {
        const bool corrupt = e.code() == SQLITE_NOTADB || e.code() == SQLITE_CORRUPT;
        result.error = corrupt ? OpenError::Corrupt : OpenError::Unreadable;
        result.message = corrupt
                             ? QStringLiteral("%1 is not a valid SQLite database or it is "
                                              "damaged (%2).")
                                   .arg(path, e.message())
                             : QStringLiteral("%1 could not be read: %2.").arg(path, e.message());
    }
    return result;
}

void ResultsDatabase::detectFeatures() {
    siteInstances_ = connection_.hasTable(QStringLiteral("race_site_instances"));
    siteContexts_ =
        connection_.hasColumn(QStringLiteral("access_sites"), QStringLiteral("context"));
    inlinedFrames_ =
        connection_.hasColumn(QStringLiteral("locations"), QStringLiteral("inlined_into"));
    heapBlocks_ = connection_.hasTable(QStringLiteral("heap_blocks"));
}

QList<StoredRun> ResultsDatabase::runs() const {
    auto stmt = connection_.prepare(QStringLiteral(
        "SELECT id, trace_path, trace_format, ordering, analyzed_at, tool_version, truncated, "
        "events, processes, apparent, feasible, feasible_ec, unvalidated, actual, tangles, "
        "partitions, first_partitions, program FROM runs ORDER BY id"));
    QList<StoredRun> runs;
    while (stmt.step()) {
        StoredRun run;
        run.id = stmt.integer(0);
        run.tracePath = stmt.text(1);
        run.traceFormat = stmt.text(2);
        run.ordering = stmt.text(3);
        run.createdAt = stmt.text(4);
        run.toolVersion = stmt.text(5);
        run.truncated = stmt.integer(6) != 0;
        run.events = stmt.integer(7);
        run.processes = stmt.integer(8);
        run.races = stmt.integer(9);
        run.feasible = stmt.integer(10);
        run.feasibleEc = stmt.integer(11);
        run.unvalidated = stmt.integer(12);
        run.actual = stmt.optionalInteger(13).value_or(0);
        run.tangles = stmt.integer(14);
        run.partitions = stmt.integer(15);
        run.firstPartitions = stmt.integer(16);
        run.program = stmt.text(17);
        runs.append(run);
    }
    return runs;
}

QStringList ResultsDatabase::threadNames(qint64 run) const {
    auto stmt = connection_.prepare(
        QStringLiteral("SELECT name FROM processes WHERE run_id = ? ORDER BY id"));
    stmt.bind(1, run);
    QStringList names;
    while (stmt.step())
        names << stmt.text(0);
    return names;
}

QStringList ResultsDatabase::raceFiles(qint64 run) const {
    // The files of access sites: one pass over access_sites (the site_pairs of 10^6 races have
    // 780 000 rows: reading their files takes seconds).
    auto stmt = connection_.prepare(QStringLiteral(
        "SELECT DISTINCT l.file FROM locations AS l WHERE l.run_id = :run AND l.file <> '' "
        "AND l.id IN (SELECT location FROM access_sites WHERE run_id = :run) ORDER BY 1"));
    stmt.bind(":run", run);
    QStringList files;
    while (stmt.step())
        files << stmt.text(0);
    return files;
}

namespace {

// The browser's order of races (RaceOrderKey): group, then status, then partition and id.
// First partitions have the lowest partition ids (SCHEMA.md), so a race is in a first
// partition when its partition id is at most :last_first.
const char* kGroupSql = "(CASE WHEN r.partition <= :last_first THEN 0 "
                        "WHEN r.status <> 'unvalidated' THEN 1 ELSE 2 END)";
const char* kStatusOrderSql = "(CASE r.status WHEN 'feasible' THEN 0 WHEN 'feasible-ec' THEN 1 "
                              "ELSE 2 END)";

// The passes of a race-site scan: the races of one group and one status each.
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

RaceGroup groupOf(const RaceSummary& race) {
    if (race.firstPartition) return RaceGroup::FirstPartition;
    return race.status == RaceStatus::Unvalidated ? RaceGroup::Other : RaceGroup::Validated;
}

StatusCounts readCounts(const SqliteStatement& stmt, int column) {
    StatusCounts counts;
    counts.races = stmt.integer(column);
    counts.feasible = stmt.integer(column + 1);
    counts.feasibleEc = stmt.integer(column + 2);
    counts.unvalidated = stmt.integer(column + 3);
    counts.actual = stmt.integer(column + 4);
    return counts;
}

const char* kCountsSql = "count(*), coalesce(sum(r.status = 'feasible'), 0), "
                         "coalesce(sum(r.status = 'feasible-ec'), 0), "
                         "coalesce(sum(r.status = 'unvalidated'), 0), "
                         "coalesce(sum(coalesce(r.actual, 0)), 0)";

} // namespace

qint64 ResultsDatabase::lastFirstPartition(qint64 run) const {
    if (firstPartitionsRun_ != run) {
        auto stmt = connection_.prepare(QStringLiteral(
            "SELECT coalesce(max(id), -1) FROM partitions WHERE run_id = :run AND first = 1"));
        stmt.bind(":run", run);
        lastFirstPartition_ = stmt.step() ? stmt.integer(0) : -1;
        firstPartitionsRun_ = run;
    }
    return lastFirstPartition_;
}

QString ResultsDatabase::racePairsTable(qint64 run) const {
    if (siteInstances_) return QStringLiteral("race_site_instances");
    // Schema version 1 keys race_site_pairs by site only: copy it keyed by race, once per run
    // (about 0.4 s for 10^6 races).
    if (racePairsRun_ != run) {
        connection_.execute(QStringLiteral(
            "DROP TABLE IF EXISTS temp.race_pairs;"
            "CREATE TEMP TABLE race_pairs (run_id INTEGER, race_id INTEGER, ordinal INTEGER, "
            "pair_id INTEGER, PRIMARY KEY (run_id, race_id, ordinal)) WITHOUT ROWID;"));
        auto fill = connection_.prepare(
            QStringLiteral("INSERT INTO temp.race_pairs SELECT run_id, race_id, pair_id, pair_id "
                           "FROM race_site_pairs WHERE run_id = :run ORDER BY race_id, pair_id"));
        fill.bind(":run", run);
        fill.step();
        racePairsRun_ = run;
    }
    return QStringLiteral("temp.race_pairs");
}

StatusCounts ResultsDatabase::statusCounts(qint64 run, const RaceFilter& filter) const {
    RaceFilter any = filter;
    any.statuses.clear();
    StatusCounts counts;
    if (any.isEmpty()) {
        auto stmt = connection_.prepare(QStringLiteral(
            "SELECT apparent, feasible, feasible_ec, unvalidated, coalesce(actual, 0) FROM runs "
            "WHERE id = :run"));
        stmt.bind(":run", run);
        if (stmt.step()) counts = readCounts(stmt, 0);
        return counts;
    }
    auto stmt = connection_.prepare(QStringLiteral("SELECT %1 FROM races AS r WHERE r.run_id = "
                                                   ":run AND %2")
                                        .arg(QLatin1String(kCountsSql), filterCondition(run, any)));
    stmt.bind(":run", run);
    bindFilter(stmt, any);
    if (stmt.step()) counts = readCounts(stmt, 0);
    return counts;
}

QList<RaceSiteRow> ResultsDatabase::raceSites(qint64 run, const RaceFilter& filter,
                                              RaceSiteCursor& cursor, int limit) const {
    QList<RaceSiteRow> sites;
    const qint64 lastFirst = lastFirstPartition(run);
    const QString pairs = racePairsTable(run);
    const QString condition = filterCondition(run, filter);
    constexpr int kBatch = 256;
    // A search or a file filter selects few races: the scan starts from those (sorting them
    // per batch) instead of walking every race of the run in order to find them.
    const bool selective = !filter.search.trimmed().isEmpty() || !filter.file.isEmpty();
    const QString races = selective ? QStringLiteral("temp.hit_order AS h JOIN races AS r ON "
                                                     "r.run_id = :run AND r.id = h.race_id")
                                    : racesByPartition();
    const QString position = selective ? QStringLiteral("h.partition BETWEEN :lo AND :hi AND "
                                                        "(h.partition, h.race_id)")
                                       : QStringLiteral("r.partition BETWEEN :lo AND :hi AND "
                                                        "(r.partition, r.id)");
    const QString order =
        selective ? QStringLiteral("h.partition, h.race_id") : QStringLiteral("r.partition, r.id");

    while (!cursor.done && sites.size() < limit) {
        if (cursor.pass >= int(std::size(kSitePasses))) {
            cursor.done = true;
            break;
        }
        const SitePass pass = kSitePasses[cursor.pass];
        if (!filter.statuses.isEmpty() && !filter.statuses.contains(pass.status)) {
            ++cursor.pass;
            cursor.partition = cursor.race = -1;
            continue;
        }
        const bool first = pass.group == RaceGroup::FirstPartition;
        auto scan = connection_.prepare(
            QStringLiteral(
                "SELECT r.id, r.partition, x.pair_id FROM (SELECT r.id, r.partition FROM %1 "
                "WHERE r.run_id = :run AND %4 > (:partition, :race) AND r.status = :status "
                "AND %2 ORDER BY %5 LIMIT :batch) AS r "
                "LEFT JOIN %3 AS x ON x.run_id = :run AND x.race_id = r.id "
                "ORDER BY r.partition, r.id, x.ordinal")
                .arg(races, condition, pairs, position, order));
        scan.bind(":run", run)
            .bind(":lo", first ? 0 : lastFirst + 1)
            .bind(":hi", first ? lastFirst : std::numeric_limits<qint64>::max())
            .bind(":status", statusName(pass.status))
            .bind(":partition", cursor.partition)
            .bind(":race", cursor.race)
            .bind(":batch", kBatch);
        bindFilter(scan, filter);
        QSet<qint64> racesSeen;
        while (scan.step()) {
            const qint64 race = scan.integer(0);
            const qint64 partition = scan.integer(1);
            // A race without race site instances counts under the unknown pair (SCHEMA.md).
            const std::optional<qint64> instance = scan.optionalInteger(2);
            const std::optional<qint64> unknown = instance ? instance : unknownPair(run);
            if (!unknown) continue;
            const qint64 pair = *unknown;
            racesSeen.insert(race);
            cursor.partition = partition;
            cursor.race = race;
            if (cursor.listed.contains(pair)) continue;
            cursor.listed.insert(pair);
            sites.append(raceSite(run, pair, race, partition, pass.group));
        }
        // A race without site pairs still moves the cursor (the join drops it).
        if (racesSeen.size() < kBatch) {
            // Fewer races than a batch: unless the join dropped some, the pass is over. Check
            // by asking for the next race directly.
            auto next = connection_.prepare(
                QStringLiteral("SELECT r.partition, r.id FROM %1 WHERE r.run_id = :run AND "
                               "%3 > (:partition, :race) AND r.status = :status AND %2 "
                               "ORDER BY %4 LIMIT 1")
                    .arg(races, condition, position, order));
            next.bind(":run", run)
                .bind(":lo", first ? 0 : lastFirst + 1)
                .bind(":hi", first ? lastFirst : std::numeric_limits<qint64>::max())
                .bind(":status", statusName(pass.status))
                .bind(":partition", cursor.partition)
                .bind(":race", cursor.race);
            bindFilter(next, filter);
            if (!next.step()) {
                ++cursor.pass;
                cursor.partition = cursor.race = -1;
            } else if (racesSeen.isEmpty()) {
                // Races without pairs only: step over them.
                cursor.partition = next.integer(0);
                cursor.race = next.integer(1);
            }
        }
    }
    return sites;
}

RaceSiteRow ResultsDatabase::raceSite(qint64 run, qint64 pair, qint64 leadRace,
                                      qint64 leadPartition, RaceGroup group) const {
    RaceSiteRow row;
    row.pairId = pair;
    row.group = group;
    row.leadRace = leadRace;
    row.leadPartition = leadPartition;
    auto site = connection_.prepare(
        QStringLiteral("SELECT site_key, file_1, line_1, function_1, file_2, line_2, function_2 "
                       "FROM site_pairs WHERE run_id = :run AND id = :pair"));
    site.bind(":run", run).bind(":pair", pair);
    if (site.step()) {
        row.key = site.text(0);
        row.first = {site.text(1), int(site.integer(2)), 0, site.text(3)};
        row.second = {site.text(4), int(site.integer(5)), 0, site.text(6)};
    }
    // What the lead race's two sites share (v2), else the race's conflicting variables.
    auto variable = connection_.prepare(
        siteInstances_ ? QStringLiteral("SELECT variable FROM race_site_instances WHERE run_id = "
                                        ":run AND race_id = :race AND pair_id = :pair ORDER BY "
                                        "ordinal LIMIT 1")
                       : QStringLiteral("SELECT group_concat(name, ', ') FROM (SELECT name FROM "
                                        "race_variables WHERE run_id = :run AND race_id = :race "
                                        "ORDER BY ordinal LIMIT 3)"));
    variable.bind(":run", run).bind(":race", leadRace).bind(":pair", pair);
    if (variable.step()) row.variable = variable.text(0);
    return row;
}

void ResultsDatabase::countSiteRaces(qint64 run, const RaceFilter& filter,
                                     QList<RaceSiteRow>& sites) const {
    auto stmt = connection_.prepare(
        QStringLiteral("SELECT %1 FROM race_site_pairs AS x JOIN races AS r ON r.run_id = "
                       "x.run_id AND r.id = x.race_id WHERE x.run_id = :run AND x.pair_id = "
                       ":pair AND %2")
            .arg(QLatin1String(kCountsSql), filterCondition(run, filter)));
    for (RaceSiteRow& site : sites) {
        stmt.reset();
        stmt.bind(":run", run).bind(":pair", site.pairId);
        bindFilter(stmt, filter);
        if (stmt.step()) site.counts = readCounts(stmt, 0);
        site.counted = true;
    }
}

QList<RaceSummary> ResultsDatabase::siteRaces(qint64 run, qint64 pair, const RaceFilter& filter,
                                              const RaceOrderKey& after, int limit) const {
    const QString group = QString::fromLatin1(kGroupSql);
    const QString status = QString::fromLatin1(kStatusOrderSql);
    auto stmt = connection_.prepare(raceSummarySql(
        QStringLiteral("x.run_id = :run AND x.pair_id = :pair AND %1 AND "
                       "(%2, %3, r.partition, r.id) > (:g, :s, :p, :i) "
                       "ORDER BY %2, %3, r.partition, r.id LIMIT :limit")
            .arg(filterCondition(run, filter), group, status),
        QStringLiteral("race_site_pairs AS x JOIN races AS r ON r.run_id = x.run_id AND r.id = "
                       "x.race_id")));
    stmt.bind(":run", run)
        .bind(":pair", pair)
        .bind(":last_first", lastFirstPartition(run))
        .bind(":g", after.group)
        .bind(":s", after.status)
        .bind(":p", after.partition)
        .bind(":i", after.race)
        .bind(":limit", limit);
    bindFilter(stmt, filter);
    QList<RaceSummary> result;
    while (stmt.step())
        result.append(readRaceSummary(stmt));
    return result;
}

QList<qint64> ResultsDatabase::pairsOfRace(qint64 run, qint64 id) const {
    auto stmt = connection_.prepare(
        QStringLiteral("SELECT DISTINCT pair_id FROM %1 WHERE run_id = :run AND race_id = :race "
                       "ORDER BY ordinal")
            .arg(racePairsTable(run)));
    stmt.bind(":run", run).bind(":race", id);
    QList<qint64> pairs;
    while (stmt.step())
        pairs << stmt.integer(0);
    if (pairs.isEmpty())
        if (const auto unknown = unknownPair(run)) pairs << *unknown;
    return pairs;
}

std::optional<qint64> ResultsDatabase::unknownPair(qint64 run) const {
    if (unknownPairRun_ != run) {
        auto stmt = connection_.prepare(QStringLiteral(
            "SELECT id FROM site_pairs WHERE run_id = :run AND site_key = '<unknown> <-> "
            "<unknown>'"));
        stmt.bind(":run", run);
        unknownPair_ = stmt.step() ? std::optional<qint64>(stmt.integer(0)) : std::nullopt;
        unknownPairRun_ = run;
    }
    return unknownPair_;
}

std::optional<RaceOrderKey> ResultsDatabase::orderKey(qint64 run, qint64 id) const {
    const auto summary = race(run, id);
    if (!summary) return std::nullopt;
    return RaceOrderKey{int(groupOf(*summary)), int(summary->status), summary->partition,
                        summary->id};
}

std::optional<RaceSummary> ResultsDatabase::race(qint64 run, qint64 id) const {
    auto stmt =
        connection_.prepare(raceSummarySql(QStringLiteral("r.run_id = :run AND r.id = :id")));
    stmt.bind(":run", run).bind(":id", id);
    if (!stmt.step()) return std::nullopt;
    return readRaceSummary(stmt);
}

bool ResultsDatabase::raceMatches(qint64 run, qint64 id, const RaceFilter& filter) const {
    auto stmt = connection_.prepare(
        QStringLiteral("SELECT 1 FROM races AS r WHERE r.run_id = :run AND r.id = :id AND %1")
            .arg(filterCondition(run, filter)));
    stmt.bind(":run", run).bind(":id", id);
    bindFilter(stmt, filter);
    return stmt.step();
}

QList<SourceLocation> ResultsDatabase::locationFrames(qint64 run,
                                                      std::optional<qint64> location) const {
    // A location and, in schema version 2, the calls inlined at its pc (locations.inlined_into).
    QList<SourceLocation> frames;
    auto stmt = connection_.prepare(
        inlinedFrames_
            ? QStringLiteral("SELECT file, line, \"column\", function, inlined_into FROM "
                             "locations WHERE run_id = :run AND id = :id")
            : QStringLiteral("SELECT file, line, \"column\", function, NULL FROM locations "
                             "WHERE run_id = :run AND id = :id"));
    for (int depth = 0; location && depth < 32; ++depth) {
        stmt.reset();
        stmt.bind(":run", run).bind(":id", *location);
        if (!stmt.step()) break;
        frames.append({stmt.text(0), int(stmt.integer(1)), int(stmt.integer(2)), stmt.text(3)});
        location = stmt.optionalInteger(4);
    }
    return frames;
}

QList<SourceLocation> ResultsDatabase::contextStack(qint64 run,
                                                    std::optional<qint64> context) const {
    // Walk the calling-context tree from the innermost frame to the root (bounded, in case of
    // a damaged tree).
    QList<SourceLocation> frames;
    auto frame = connection_.prepare(
        QStringLiteral("SELECT parent, location FROM contexts WHERE run_id = :run AND id = :id"));
    if (!context) return frames;
    qint64 node = *context;
    for (int depth = 0; depth < 128; ++depth) {
        frame.reset();
        frame.bind(":run", run).bind(":id", node);
        if (!frame.step()) break;
        const std::optional<qint64> location = frame.optionalInteger(1);
        const std::optional<qint64> parent = frame.optionalInteger(0);
        frames.append(locationFrames(run, location));
        if (!parent) break;
        node = *parent;
    }
    return frames;
}

QList<AccessSite> ResultsDatabase::accessSites(qint64 run, qint64 race, const QString& side) const {
    auto stmt = connection_.prepare(
        QStringLiteral("SELECT s.location, s.kind, %1 FROM race_accesses AS x "
                       "JOIN access_sites AS s ON s.run_id = x.run_id AND s.id = x.site "
                       "WHERE x.run_id = :run AND x.race_id = :race AND x.side = :side "
                       "ORDER BY x.ordinal")
            .arg(siteContexts_ ? QStringLiteral("s.context") : QStringLiteral("NULL")));
    stmt.bind(":run", run).bind(":race", race).bind(":side", side);
    QList<AccessSite> sites;
    while (stmt.step()) {
        AccessSite site;
        site.kind = stmt.text(1);
        site.stack = locationFrames(run, stmt.optionalInteger(0));
        if (!site.stack.isEmpty()) site.access = site.stack.front();
        if (!stmt.isNull(2)) site.stack.append(contextStack(run, stmt.optionalInteger(2)));
        sites.append(site);
    }
    return sites;
}

EventDetails ResultsDatabase::eventDetails(qint64 run, qint64 process, qint64 index) const {
    EventDetails event;
    event.process = process;
    event.index = index;
    auto stmt = connection_.prepare(QStringLiteral(
        "SELECT p.name, e.kind, e.clock_start, e.clock_finish, e.context, p.parent, "
        "(SELECT name FROM processes AS q WHERE q.run_id = p.run_id AND q.id = p.parent) "
        "FROM processes AS p "
        "LEFT JOIN events AS e ON e.run_id = p.run_id AND e.process = p.id AND e.idx = :idx "
        "WHERE p.run_id = :run AND p.id = :process"));
    stmt.bind(":run", run).bind(":process", process).bind(":idx", index);
    if (!stmt.step()) return event;
    event.thread = stmt.text(0);
    event.kind = stmt.text(1);
    event.clockStart = stmt.optionalInteger(2);
    event.clockFinish = stmt.optionalInteger(3);
    event.context = contextStack(run, stmt.optionalInteger(4));
    const std::optional<qint64> parent = stmt.optionalInteger(5);
    event.parentThread = stmt.text(6);

    // Where the thread was created: the parent's fork event naming it (its call location and
    // calling context).
    if (parent) {
        auto fork = connection_.prepare(QStringLiteral(
            "SELECT location, context FROM events WHERE run_id = :run AND process = :parent AND "
            "kind = 'fork' AND object = :child LIMIT 1"));
        fork.bind(":run", run).bind(":parent", *parent).bind(":child", process);
        if (fork.step()) {
            event.creationStack = locationFrames(run, fork.optionalInteger(0));
            event.creationStack.append(contextStack(run, fork.optionalInteger(1)));
        }
    }

    // Locks held: the lock objects this process acquired before the event and has not released
    // (events of one process are in program order; a rwlock is a lock object, DESIGN-NOTES).
    auto locks = connection_.prepare(QStringLiteral(
        "SELECT o.name FROM (SELECT object, sum(CASE kind WHEN 'acquire' THEN 1 ELSE -1 END) AS "
        "depth FROM events WHERE run_id = :run AND process = :process AND idx < :idx AND kind IN "
        "('acquire', 'release') AND object IS NOT NULL GROUP BY object) AS h "
        "JOIN sync_objects AS o ON o.run_id = :run AND o.id = h.object "
        "WHERE h.depth > 0 AND o.kind IN ('lock', 'rwlock', 'spinlock') ORDER BY o.id"));
    locks.bind(":run", run).bind(":process", process).bind(":idx", index);
    while (locks.step())
        event.locksHeld << locks.text(0);
    return event;
}

std::optional<HeapBlockInfo> ResultsDatabase::heapBlock(qint64 run, qint64 id) const {
    if (!heapBlocks_) return std::nullopt;
    // The latest block holding the first conflicting byte (SCHEMA.md, heap_blocks).
    auto stmt = connection_.prepare(QStringLiteral(
        "SELECT h.lo, h.hi, (SELECT name FROM processes AS p WHERE p.run_id = h.run_id AND p.id "
        "= h.process), h.location, h.context FROM race_variables AS v JOIN heap_blocks AS h ON "
        "h.run_id = v.run_id AND h.lo <= v.lo AND v.lo < h.hi WHERE v.run_id = :run AND "
        "v.race_id = :race AND v.ordinal = 0 ORDER BY h.id DESC LIMIT 1"));
    stmt.bind(":run", run).bind(":race", id);
    if (!stmt.step()) return std::nullopt;
    HeapBlockInfo block;
    block.lo = stmt.integer(0);
    block.hi = stmt.integer(1);
    block.thread = stmt.text(2);
    block.allocationStack = locationFrames(run, stmt.optionalInteger(3));
    block.allocationStack.append(contextStack(run, stmt.optionalInteger(4)));
    return block;
}

OrderedAfter ResultsDatabase::orderedAfter(qint64 run, const RaceSummary& race) const {
    OrderedAfter after;
    if (race.firstPartition) return after;
    // The partitions directly before the race's one in the partition DAG (Def 8.2).
    auto stmt = connection_.prepare(QStringLiteral(
        "SELECT partition_id FROM partition_edges WHERE run_id = :run AND after_id = "
        ":partition ORDER BY partition_id"));
    stmt.bind(":run", run).bind(":partition", race.partition);
    while (stmt.step())
        after.partitions << stmt.integer(0);
    if (!after.partitions.isEmpty()) {
        // The earliest race of the first partition before it, in the browser's order, stands
        // for "the race it is ordered after" until the database names one.
        auto lead = connection_.prepare(
            QStringLiteral("SELECT r.id FROM %1 WHERE r.run_id = :run AND r.partition = "
                           ":partition ORDER BY (CASE r.status WHEN 'feasible' THEN 0 WHEN "
                           "'feasible-ec' THEN 1 ELSE 2 END), r.id LIMIT 1")
                .arg(racesByPartition()));
        lead.bind(":run", run).bind(":partition", after.partitions.front());
        if (lead.step()) after.race = lead.integer(0);
    }
    return after;
}

std::optional<RaceDetails> ResultsDatabase::raceDetails(qint64 run, qint64 id) const {
    auto summary = race(run, id);
    if (!summary) return std::nullopt;
    RaceDetails details;
    details.summary = *summary;
    auto stmt = connection_.prepare(QStringLiteral("SELECT a_process, a_index, b_process, b_index "
                                                   "FROM races WHERE run_id = :run AND id = :id"));
    stmt.bind(":run", run).bind(":id", id);
    stmt.step();
    details.a = eventDetails(run, stmt.integer(0), stmt.integer(1));
    details.b = eventDetails(run, stmt.integer(2), stmt.integer(3));
    auto vars = connection_.prepare(QStringLiteral(
        "SELECT name FROM race_variables WHERE run_id = :run AND race_id = :id ORDER BY ordinal"));
    vars.bind(":run", run).bind(":id", id);
    while (vars.step())
        details.variables << vars.text(0);
    if (siteInstances_) {
        auto memory = connection_.prepare(QStringLiteral(
            "SELECT variable FROM race_site_instances WHERE run_id = :run AND race_id = :id "
            "ORDER BY ordinal LIMIT 1"));
        memory.bind(":run", run).bind(":id", id);
        if (memory.step()) details.memory = memory.text(0);
    }
    if (details.memory.isEmpty()) details.memory = details.variables.join(QStringLiteral(", "));
    details.heapBlock = heapBlock(run, id);
    details.sitesA = accessSites(run, id, QStringLiteral("a"));
    details.sitesB = accessSites(run, id, QStringLiteral("b"));
    details.orderedAfter = orderedAfter(run, *summary);
    return details;
}

QList<RaceDetails> ResultsDatabase::siteRaceDetails(qint64 run, qint64 pair,
                                                    const RaceFilter& filter, int limit) const {
    QList<RaceDetails> result;
    RaceOrderKey after;
    while (result.size() < limit) {
        const auto page =
            siteRaces(run, pair, filter, after, std::min(200, limit - int(result.size())));
        for (const RaceSummary& race : page)
            if (auto details = raceDetails(run, race.id)) result.append(*details);
        if (page.size() < 200) break;
        const RaceSummary& last = page.back();
        after = {int(groupOf(last)), int(last.status), last.partition, last.id};
    }
    return result;
}

SourceText ResultsDatabase::sourceText(qint64 run, const QString& file) const {
    SourceText source;
    source.file = file;
    auto stmt = connection_.prepare(QStringLiteral(
        "SELECT t.text FROM source_files AS f JOIN source_texts AS t ON t.id = f.text_id "
        "WHERE f.run_id = :run AND f.path = :path"));
    stmt.bind(":run", run).bind(":path", file);
    if (stmt.step()) {
        source.text = stmt.text(0);
        source.available = true;
    }
    return source;
}

HistoryData ResultsDatabase::history(qint64 run, qint64 id, int before, int after,
                                     std::optional<qint64> orderedAfter) const {
    HistoryData history;
    history.focusRace = id;
    auto raceStmt =
        connection_.prepare(QStringLiteral("SELECT a_process, a_index, b_process, b_index, tangle "
                                           "FROM races WHERE run_id = :run AND id = :id"));
    raceStmt.bind(":run", run).bind(":id", id);
    if (!raceStmt.step()) return history;
    const EventKey a{raceStmt.integer(0), raceStmt.integer(1)};
    const EventKey b{raceStmt.integer(2), raceStmt.integer(3)};
    history.focusTangle = raceStmt.optionalInteger(4);
    // The events of the race it is ordered after get windows too.
    QList<EventKey> focusEvents{a, b};
    std::optional<std::pair<EventKey, EventKey>> earlier;
    if (orderedAfter) {
        raceStmt.reset();
        raceStmt.bind(":run", run).bind(":id", *orderedAfter);
        if (raceStmt.step()) {
            earlier = {EventKey{raceStmt.integer(0), raceStmt.integer(1)},
                       EventKey{raceStmt.integer(2), raceStmt.integer(3)}};
            focusEvents << earlier->first << earlier->second;
            history.orderedAfterRace = orderedAfter;
        }
    }

    // Processes and their event counts.
    QMap<qint64, HistoryLane> lanes;
    auto processStmt = connection_.prepare(QStringLiteral(
        "SELECT id, name, event_count FROM processes WHERE run_id = :run ORDER BY id"));
    processStmt.bind(":run", run);
    QMap<qint64, HistoryLane> all;
    qint64 totalEvents = 0;
    while (processStmt.step()) {
        HistoryLane lane;
        lane.process = processStmt.integer(0);
        lane.name = processStmt.text(1);
        lane.eventCount = processStmt.integer(2);
        lane.firstIndex = 0;
        lane.lastIndex = lane.eventCount - 1;
        totalEvents += lane.eventCount;
        all.insert(lane.process, lane);
    }

    constexpr qint64 kWholeRunLimit = 160; // show the whole run when it is this small
    constexpr qint64 kScanAllRacesLimit = 100000;
    constexpr qint64 kMaxLaneSpan = 14; // events per lane of another process
    auto window = [&](const EventKey& key) {
        HistoryLane lane = all.value(key.process);
        lane.firstIndex = std::max<qint64>(0, key.index - before);
        lane.lastIndex = std::min<qint64>(lane.eventCount - 1, key.index + after);
        return lane;
    };
    auto inWindow = [&](const EventKey& key) {
        auto it = lanes.constFind(key.process);
        return it != lanes.constEnd() && key.index >= it->firstIndex && key.index <= it->lastIndex;
    };
    auto windowsSql = [&](const QString& processColumn, const QString& indexColumn) {
        QStringList parts;
        for (const HistoryLane& lane : lanes)
            parts << QStringLiteral("(%1 = %2 AND %3 BETWEEN %4 AND %5)")
                         .arg(processColumn)
                         .arg(lane.process)
                         .arg(indexColumn)
                         .arg(lane.firstIndex)
                         .arg(lane.lastIndex);
        return parts.isEmpty()
                   ? QStringLiteral("0")
                   : QLatin1Char('(') + parts.join(QStringLiteral(" OR ")) + QLatin1Char(')');
    };

    if (totalEvents <= kWholeRunLimit) {
        for (const HistoryLane& lane : all)
            if (lane.eventCount > 0) lanes.insert(lane.process, lane);
    } else {
        for (const EventKey& key : focusEvents) {
            const HistoryLane other = window(key);
            if (!lanes.contains(key.process)) {
                lanes.insert(key.process, other);
                continue;
            }
            // One window per lane: spanning both events when they are close, else the first.
            HistoryLane& lane = lanes[key.process];
            constexpr qint64 kMaxJoinedSpan = 40;
            if (std::max(lane.lastIndex, other.lastIndex) -
                    std::min(lane.firstIndex, other.firstIndex) <
                kMaxJoinedSpan) {
                lane.firstIndex = std::min(lane.firstIndex, other.firstIndex);
                lane.lastIndex = std::max(lane.lastIndex, other.lastIndex);
            }
        }
        // The processes the two windows synchronize with, around the events they touch.
        auto partners = connection_.prepare(
            QStringLiteral("SELECT from_process, from_index, to_process, to_index FROM graph_edges "
                           "WHERE run_id = :run AND kind = 'ordering' AND (%1 OR %2)")
                .arg(windowsSql(QStringLiteral("from_process"), QStringLiteral("from_index")),
                     windowsSql(QStringLiteral("to_process"), QStringLiteral("to_index"))));
        partners.bind(":run", run);
        QMap<qint64, std::pair<qint64, qint64>> touched;
        while (partners.step()) {
            const EventKey from{partners.integer(0), partners.integer(1)};
            const EventKey to{partners.integer(2), partners.integer(3)};
            for (const EventKey& key : {from, to}) {
                if (lanes.contains(key.process)) continue;
                auto it = touched.find(key.process);
                if (it == touched.end())
                    touched.insert(key.process, {key.index, key.index});
                else
                    *it = {std::min(it->first, key.index), std::max(it->second, key.index)};
            }
        }
        for (auto it = touched.cbegin(); it != touched.cend(); ++it) {
            HistoryLane lane = all.value(it.key());
            lane.firstIndex = std::max<qint64>(0, it->first - 1);
            lane.lastIndex = std::min<qint64>(lane.eventCount - 1, it->second + 1);
            if (lane.lastIndex - lane.firstIndex + 1 > kMaxLaneSpan)
                lane.firstIndex = lane.lastIndex - kMaxLaneSpan + 1;
            lanes.insert(lane.process, lane);
        }
    }
    history.lanes = lanes.values();

    // Events with their object names and first access sites.
    auto events = connection_.prepare(
        QStringLiteral(
            "SELECT e.process, e.idx, e.kind, e.clock_start, e.clock_finish, e.site_count, "
            "CASE WHEN e.kind IN ('fork', 'join') THEN (SELECT name FROM processes AS p "
            "  WHERE p.run_id = e.run_id AND p.id = e.object) "
            "ELSE (SELECT name FROM sync_objects AS o WHERE o.run_id = e.run_id AND o.id = "
            "e.object) END, "
            "(SELECT %1 FROM locations AS l WHERE l.run_id = e.run_id AND l.id = e.location) "
            "FROM events AS e WHERE e.run_id = :run AND %2 ORDER BY e.process, e.idx")
            .arg(QString::fromLatin1(kLocationText),
                 windowsSql(QStringLiteral("e.process"), QStringLiteral("e.idx"))));
    events.bind(":run", run);
    QHash<EventKey, int> eventRow;
    while (events.step()) {
        HistoryEvent event;
        event.key = {events.integer(0), events.integer(1)};
        event.kind = events.text(2);
        event.computation = event.kind == QLatin1String("computation");
        event.clockStart = events.optionalInteger(3);
        event.clockFinish = events.optionalInteger(4);
        const QString object = events.text(6);
        if (!event.computation) {
            event.label = object.isEmpty() ? event.kind : event.kind + QLatin1Char(' ') + object;
            if (!events.isNull(7)) event.detail = baseName(events.text(7));
        }
        eventRow.insert(event.key, int(history.events.size()));
        history.events.append(event);
    }
    // Access sites of the computation events: label = distinct lines, detail = all sites.
    // One indexed range per lane (access_sites_by_event): an OR of the ranges makes SQLite
    // scan every site of the run.
    QStringList siteRanges;
    for (const HistoryLane& lane : lanes)
        siteRanges << QStringLiteral(
                          "SELECT s.id, s.process, s.event_index, s.kind, %1 AS location FROM "
                          "access_sites AS s "
                          "LEFT JOIN locations AS l ON l.run_id = s.run_id AND l.id = s.location "
                          "WHERE s.run_id = :run AND s.process = %2 AND s.event_index BETWEEN %3 "
                          "AND %4")
                          .arg(QString::fromLatin1(kLocationText))
                          .arg(lane.process)
                          .arg(lane.firstIndex)
                          .arg(lane.lastIndex);
    auto sites = connection_.prepare(
        QStringLiteral("SELECT process, event_index, kind, location FROM (%1) ORDER BY process, "
                       "event_index, id")
            .arg(siteRanges.isEmpty() ? QStringLiteral("SELECT 0 AS id, 0 AS process, 0 AS "
                                                       "event_index, '' AS kind, '' AS location "
                                                       "WHERE 0")
                                      : siteRanges.join(QStringLiteral(" UNION ALL "))));
    sites.bind(":run", run);
    // Label: "workq.c:20,21,23" (the lines of each file once, in site order).
    QHash<EventKey, QList<std::pair<QString, QStringList>>> labels;
    QHash<EventKey, QStringList> details;
    while (sites.step()) {
        const EventKey key{sites.integer(0), sites.integer(1)};
        const QString location = baseName(sites.text(3));
        const int colon = location.lastIndexOf(QLatin1Char(':'));
        const QString file = colon < 0 ? location : location.left(colon);
        const QString line = colon < 0 ? QString() : location.mid(colon + 1);
        auto& files = labels[key];
        auto it = std::find_if(files.begin(), files.end(),
                               [&](const auto& f) { return f.first == file; });
        if (it == files.end()) {
            files.append({file, {}});
            it = files.end() - 1;
        }
        if (!line.isEmpty() && !it->second.contains(line)) it->second << line;
        details[key] << location + QLatin1Char(' ') + sites.text(2);
    }
    for (HistoryEvent& event : history.events) {
        if (!event.computation) continue;
        QStringList parts;
        for (const auto& [file, lines] : labels.value(event.key))
            parts << (lines.isEmpty() ? file
                                      : file + QLatin1Char(':') + lines.join(QLatin1Char(',')));
        event.label =
            parts.isEmpty() ? QStringLiteral("(no accesses)") : parts.join(QStringLiteral(" "));
        event.detail = details.value(event.key).join(QStringLiteral("; "));
    }

    // Edges with both ends shown.
    auto edges = connection_.prepare(
        QStringLiteral("SELECT kind, from_process, from_index, to_process, to_index, transitive "
                       "FROM graph_edges WHERE run_id = :run AND %1")
            .arg(windowsSql(QStringLiteral("from_process"), QStringLiteral("from_index"))));
    edges.bind(":run", run);
    while (edges.step()) {
        HistoryEdge edge;
        const QString kind = edges.text(0);
        edge.kind = kind == QLatin1String("shared-data")     ? HistoryEdgeKind::SharedData
                    : kind == QLatin1String("event-control") ? HistoryEdgeKind::EventControl
                                                             : HistoryEdgeKind::Synchronization;
        edge.from = {edges.integer(1), edges.integer(2)};
        edge.to = {edges.integer(3), edges.integer(4)};
        edge.transitive = edges.integer(5) != 0;
        if (eventRow.contains(edge.from) && eventRow.contains(edge.to)) history.edges.append(edge);
    }

    // Races with both events shown (the selected one always). Schema version 1 has no index on
    // a race's events, so in a large run only the races of the selected one's partition are
    // looked at (through the partition index) instead of scanning every race per click.
    auto sizeStmt =
        connection_.prepare(QStringLiteral("SELECT apparent FROM runs WHERE id = :run"));
    sizeStmt.bind(":run", run);
    const bool large = sizeStmt.step() && sizeStmt.integer(0) > kScanAllRacesLimit;
    const QString scope = large ? QStringLiteral("r.partition = (SELECT partition FROM races WHERE "
                                                 "run_id = :run AND id = :id) AND ")
                                : QString();
    auto readRace = [](const SqliteStatement& stmt) {
        HistoryRace race;
        race.id = stmt.integer(0);
        race.a = {stmt.integer(1), stmt.integer(2)};
        race.b = {stmt.integer(3), stmt.integer(4)};
        race.status = parseRaceStatus(stmt.text(5)).value_or(RaceStatus::Unvalidated);
        race.tangle = stmt.optionalInteger(6);
        return race;
    };
    // The selected race and the one it is ordered after first, by id.
    auto byId = connection_.prepare(QStringLiteral(
        "SELECT r.id, r.a_process, r.a_index, r.b_process, r.b_index, r.status, r.tangle "
        "FROM races AS r WHERE r.run_id = :run AND r.id = :id"));
    for (const std::optional<qint64> wanted : {std::optional<qint64>(id), orderedAfter}) {
        if (!wanted) continue;
        byId.reset();
        byId.bind(":run", run).bind(":id", *wanted);
        if (!byId.step()) continue;
        const HistoryRace race = readRace(byId);
        if (race.id == id || (inWindow(race.a) && inWindow(race.b))) history.races.append(race);
    }
    auto races = connection_.prepare(
        QStringLiteral(
            "SELECT r.id, r.a_process, r.a_index, r.b_process, r.b_index, r.status, r.tangle "
            "FROM %1 WHERE r.run_id = :run AND %2(%3 AND %4) AND r.id NOT IN (:id, :after) "
            "ORDER BY r.id LIMIT 400")
            .arg(large ? racesByPartition() : QStringLiteral("races AS r"), scope,
                 windowsSql(QStringLiteral("r.a_process"), QStringLiteral("r.a_index")),
                 windowsSql(QStringLiteral("r.b_process"), QStringLiteral("r.b_index"))));
    races.bind(":run", run).bind(":id", id).bind(":after", orderedAfter.value_or(-1));
    while (races.step()) {
        const HistoryRace race = readRace(races);
        if (inWindow(race.a) && inWindow(race.b)) history.races.append(race);
    }
    if (earlier) history.orderChain = orderChain(history, *earlier, {a, b});
    return history;
}

} // namespace firstrace::gui
