#include "results_database.hpp"

#include <QFileInfo>
#include <QHash>
#include <QMap>
#include <QSet>

#include <sqlite3.h>

#include <algorithm>

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
        parts << QStringLiteral("EXISTS (SELECT 1 FROM processes AS fp WHERE fp.run_id = r.run_id "
                                "AND fp.id IN (r.a_process, r.b_process) AND fp.name = :thread)");
    if (!filter.file.isEmpty())
        parts << QStringLiteral(
            "EXISTS (SELECT 1 FROM race_accesses AS fx "
            "JOIN access_sites AS fs ON fs.run_id = fx.run_id AND fs.id = fx.site "
            "JOIN locations AS fl ON fl.run_id = fs.run_id AND fl.id = fs.location "
            "WHERE fx.run_id = r.run_id AND fx.race_id = r.id AND fl.file = :file)");
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
               "= r.id) "
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
    return race;
}

QString baseName(const QString& file) {
    const int slash = file.lastIndexOf(QLatin1Char('/'));
    return slash < 0 ? file : file.mid(slash + 1);
}

} // namespace

ResultsDatabase::ResultsDatabase(const QString& path)
    : connection_(path, SqliteConnection::Mode::ReadOnly) {}

QString ResultsDatabase::filterCondition(qint64 run, const RaceFilter& filter) const {
    const QString search = filter.search.trimmed();
    if (!search.isEmpty() && (searchRun_ != run || searchText_ != search)) {
        collectSearchHits(run, search);
        searchRun_ = run;
        searchText_ = search;
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
        if (version > kSchemaVersion) {
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
              "race_variables", "graph_edges", "source_files"}) {
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

QList<RunInfo> ResultsDatabase::runs() const {
    auto stmt = connection_.prepare(QStringLiteral(
        "SELECT id, trace_path, trace_format, ordering, analyzed_at, tool_version, truncated, "
        "events, processes, apparent, feasible, feasible_ec, unvalidated, actual, tangles, "
        "partitions, first_partitions FROM runs ORDER BY id"));
    QList<RunInfo> runs;
    while (stmt.step()) {
        RunInfo run;
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
    // The files of access sites: one pass over access_sites. (site_pairs would name only the
    // files of races, but it has a row per distinct line pair: 780 000 for 10^6 races.)
    auto stmt = connection_.prepare(QStringLiteral(
        "SELECT DISTINCT l.file FROM locations AS l WHERE l.run_id = :run AND l.file <> '' "
        "AND l.id IN (SELECT location FROM access_sites WHERE run_id = :run) ORDER BY 1"));
    stmt.bind(":run", run);
    QStringList files;
    while (stmt.step())
        files << stmt.text(0);
    return files;
}

QList<PartitionSummary> ResultsDatabase::partitions(qint64 run, const RaceFilter& filter,
                                                    qint64 afterId, int limit) const {
    QList<PartitionSummary> result;
    QString sql = QStringLiteral("SELECT p.id, p.first, p.race_count FROM partitions AS p "
                                 "WHERE p.run_id = :run AND p.id > :after ");
    if (!filter.isEmpty())
        sql += QStringLiteral("AND EXISTS (SELECT 1 FROM %1 WHERE r.run_id = p.run_id "
                              "AND r.partition = p.id AND %2) ")
                   .arg(racesByPartition(), filterCondition(run, filter));
    sql += QStringLiteral("ORDER BY p.id LIMIT :limit");
    auto stmt = connection_.prepare(sql);
    stmt.bind(":run", run).bind(":after", afterId).bind(":limit", limit);
    bindFilter(stmt, filter);
    while (stmt.step()) {
        PartitionSummary p;
        p.id = stmt.integer(0);
        p.first = stmt.integer(1) != 0;
        p.races = filter.isEmpty() ? stmt.integer(2) : 0;
        result.append(p);
    }
    return result;
}

void ResultsDatabase::countRaces(qint64 run, const RaceFilter& filter,
                                 QList<PartitionSummary>& partitions) const {
    if (partitions.isEmpty()) return;
    qint64 lo = partitions.front().id;
    qint64 hi = lo;
    QHash<qint64, int> row;
    for (int i = 0; i < partitions.size(); ++i) {
        PartitionSummary& p = partitions[i];
        lo = std::min(lo, p.id);
        hi = std::max(hi, p.id);
        row.insert(p.id, i);
        p.races = p.feasible = p.feasibleEc = p.unvalidated = p.actual = 0;
        p.counted = true;
    }
    auto counts = connection_.prepare(
        QStringLiteral("SELECT r.partition, count(*), sum(r.status = 'feasible'), "
                       "sum(r.status = 'feasible-ec'), sum(r.status = 'unvalidated'), "
                       "sum(coalesce(r.actual, 0)) FROM %1 "
                       "WHERE r.run_id = :run AND r.partition BETWEEN :lo AND :hi AND %2 "
                       "GROUP BY r.partition")
            .arg(racesByPartition(), filterCondition(run, filter)));
    counts.bind(":run", run).bind(":lo", lo).bind(":hi", hi);
    bindFilter(counts, filter);
    while (counts.step()) {
        auto it = row.constFind(counts.integer(0));
        if (it == row.constEnd()) continue;
        PartitionSummary& p = partitions[*it];
        p.races = counts.integer(1);
        p.feasible = counts.integer(2);
        p.feasibleEc = counts.integer(3);
        p.unvalidated = counts.integer(4);
        p.actual = counts.integer(5);
    }
}

std::optional<PartitionSummary> ResultsDatabase::partition(qint64 run, qint64 id,
                                                           const RaceFilter& filter) const {
    auto page = partitions(run, filter, id - 1, 1);
    if (page.isEmpty() || page.front().id != id) return std::nullopt;
    countRaces(run, filter, page);
    return page.front();
}

QList<RaceSummary> ResultsDatabase::races(qint64 run, qint64 partition, const RaceFilter& filter,
                                          qint64 afterId, int limit) const {
    auto stmt = connection_.prepare(raceSummarySql(
        QStringLiteral("r.run_id = :run AND r.partition = :partition AND r.id > :after "
                       "AND %1 ORDER BY r.id LIMIT :limit")
            .arg(filterCondition(run, filter)),
        racesByPartition()));
    stmt.bind(":run", run)
        .bind(":partition", partition)
        .bind(":after", afterId)
        .bind(":limit", limit);
    bindFilter(stmt, filter);
    QList<RaceSummary> result;
    while (stmt.step())
        result.append(readRaceSummary(stmt));
    return result;
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

qint64 ResultsDatabase::partitionRow(qint64 run, qint64 partition, const RaceFilter& filter) const {
    QString sql = QStringLiteral(
        "SELECT count(*) FROM partitions AS p WHERE p.run_id = :run AND p.id < :partition");
    if (!filter.isEmpty())
        sql += QStringLiteral(" AND EXISTS (SELECT 1 FROM %1 WHERE r.run_id = p.run_id "
                              "AND r.partition = p.id AND %2)")
                   .arg(racesByPartition(), filterCondition(run, filter));
    auto stmt = connection_.prepare(sql);
    stmt.bind(":run", run).bind(":partition", partition);
    bindFilter(stmt, filter);
    stmt.step();
    return stmt.integer(0);
}

qint64 ResultsDatabase::raceRow(qint64 run, qint64 partition, qint64 id,
                                const RaceFilter& filter) const {
    auto stmt =
        connection_.prepare(QStringLiteral("SELECT count(*) FROM %1 WHERE r.run_id = :run AND "
                                           "r.partition = :partition AND r.id < :id AND %2")
                                .arg(racesByPartition(), filterCondition(run, filter)));
    stmt.bind(":run", run).bind(":partition", partition).bind(":id", id);
    bindFilter(stmt, filter);
    stmt.step();
    return stmt.integer(0);
}

std::optional<qint64> ResultsDatabase::firstRace(qint64 run, const RaceFilter& filter) const {
    const auto first = partitions(run, filter, -1, 1);
    if (first.isEmpty()) return std::nullopt;
    const auto race = races(run, first.front().id, filter, -1, 1);
    if (race.isEmpty()) return std::nullopt;
    return race.front().id;
}

QList<SourceSite> ResultsDatabase::raceSites(qint64 run, qint64 race, const QString& side) const {
    auto stmt = connection_.prepare(QStringLiteral(
        "SELECT l.file, l.line, l.\"column\", l.function, s.kind FROM race_accesses AS x "
        "JOIN access_sites AS s ON s.run_id = x.run_id AND s.id = x.site "
        "LEFT JOIN locations AS l ON l.run_id = s.run_id AND l.id = s.location "
        "WHERE x.run_id = :run AND x.race_id = :race AND x.side = :side ORDER BY x.ordinal"));
    stmt.bind(":run", run).bind(":race", race).bind(":side", side);
    QList<SourceSite> sites;
    while (stmt.step()) {
        SourceSite site;
        site.file = stmt.text(0);
        site.line = int(stmt.integer(1));
        site.column = int(stmt.integer(2));
        site.function = stmt.text(3);
        site.kind = stmt.text(4);
        sites.append(site);
    }
    return sites;
}

EventDetails ResultsDatabase::eventDetails(qint64 run, qint64 process, qint64 index) const {
    EventDetails event;
    event.process = process;
    event.index = index;
    auto stmt = connection_.prepare(QStringLiteral(
        "SELECT p.name, e.kind, e.clock_start, e.clock_finish, e.context FROM processes AS p "
        "LEFT JOIN events AS e ON e.run_id = p.run_id AND e.process = p.id AND e.idx = :idx "
        "WHERE p.run_id = :run AND p.id = :process"));
    stmt.bind(":run", run).bind(":process", process).bind(":idx", index);
    if (!stmt.step()) return event;
    event.thread = stmt.text(0);
    event.kind = stmt.text(1);
    event.clockStart = stmt.optionalInteger(2);
    event.clockFinish = stmt.optionalInteger(3);
    std::optional<qint64> context = stmt.optionalInteger(4);
    // Walk the calling-context tree from the innermost frame to the root (bounded, in case of
    // a damaged tree).
    auto frame = connection_.prepare(
        QStringLiteral("SELECT c.parent, l.function, l.file, l.line FROM contexts AS c "
                       "LEFT JOIN locations AS l ON l.run_id = c.run_id AND l.id = c.location "
                       "WHERE c.run_id = :run AND c.id = :id"));
    for (int depth = 0; context && depth < 64; ++depth) {
        frame.reset();
        frame.bind(":run", run).bind(":id", *context);
        if (!frame.step()) break;
        ContextFrameInfo info;
        info.function = frame.text(1);
        info.file = frame.text(2);
        info.line = int(frame.integer(3));
        event.context.append(info);
        context = frame.optionalInteger(0);
    }
    return event;
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
    details.sitesA = raceSites(run, id, QStringLiteral("a"));
    details.sitesB = raceSites(run, id, QStringLiteral("b"));
    return details;
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

HistoryData ResultsDatabase::history(qint64 run, qint64 id, int before, int after) const {
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
        lanes.insert(a.process, window(a));
        if (lanes.contains(b.process)) {
            HistoryLane& lane = lanes[b.process];
            const HistoryLane other = window(b);
            lane.firstIndex = std::min(lane.firstIndex, other.firstIndex);
            lane.lastIndex = std::max(lane.lastIndex, other.lastIndex);
        } else {
            lanes.insert(b.process, window(b));
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
    auto sites = connection_.prepare(
        QStringLiteral("SELECT s.process, s.event_index, s.kind, %1 FROM access_sites AS s "
                       "LEFT JOIN locations AS l ON l.run_id = s.run_id AND l.id = s.location "
                       "WHERE s.run_id = :run AND %2 ORDER BY s.process, s.event_index, s.id")
            .arg(QString::fromLatin1(kLocationText),
                 windowsSql(QStringLiteral("s.process"), QStringLiteral("s.event_index"))));
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
    auto races = connection_.prepare(
        QStringLiteral(
            "SELECT r.id, r.a_process, r.a_index, r.b_process, r.b_index, r.status, r.tangle "
            "FROM %1 WHERE r.run_id = :run AND %2(r.id = :id OR (%3 AND %4)) "
            "ORDER BY r.id = :id DESC, r.id LIMIT 400")
            .arg(large ? racesByPartition() : QStringLiteral("races AS r"), scope,
                 windowsSql(QStringLiteral("r.a_process"), QStringLiteral("r.a_index")),
                 windowsSql(QStringLiteral("r.b_process"), QStringLiteral("r.b_index"))));
    races.bind(":run", run).bind(":id", id);
    while (races.step()) {
        HistoryRace race;
        race.id = races.integer(0);
        race.a = {races.integer(1), races.integer(2)};
        race.b = {races.integer(3), races.integer(4)};
        race.status = parseRaceStatus(races.text(5)).value_or(RaceStatus::Unvalidated);
        race.tangle = races.optionalInteger(6);
        if (inWindow(race.a) && inWindow(race.b)) history.races.append(race);
    }
    return history;
}

} // namespace firstrace::gui
