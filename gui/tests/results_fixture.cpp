#include "results_fixture.hpp"

#include <QFile>
#include <QStringList>

#include "sqlite_connection.hpp"

namespace firstrace::gui::testing {

namespace {

using Mode = SqliteConnection::Mode;

qint64 nextRunId(const SqliteConnection& db) {
    auto stmt = db.prepare(QStringLiteral("SELECT coalesce(max(id), 0) + 1 FROM runs"));
    stmt.step();
    return stmt.integer(0);
}

// Inserts one row: `values` are bound in order (qint64, QString or null via std::nullopt).
struct Row {
    SqliteStatement stmt;
    template <typename... Values> void operator()(const Values&... values) {
        stmt.reset();
        int i = 0;
        (bindOne(++i, values), ...);
        stmt.step();
    }
    void bindOne(int i, qint64 v) { stmt.bind(i, v); }
    void bindOne(int i, int v) { stmt.bind(i, qint64(v)); }
    void bindOne(int i, const QString& v) { stmt.bind(i, v); }
    void bindOne(int i, const char* v) { stmt.bind(i, QString::fromUtf8(v)); }
    void bindOne(int i, std::nullopt_t) { stmt.bindNull(i); }
};

// The columns are named so that columns the schema adds later (nullable or with defaults) do
// not break the fixture.
Row insert(const SqliteConnection& db, const char* table, const char* columns) {
    QStringList marks;
    const int count = int(QString::fromLatin1(columns).count(QLatin1Char(','))) + 1;
    for (int i = 0; i < count; ++i)
        marks << QStringLiteral("?");
    return Row{db.prepare(
        QStringLiteral("INSERT INTO %1 (%2) VALUES (%3)")
            .arg(QLatin1String(table), QLatin1String(columns), marks.join(QLatin1Char(','))))};
}

} // namespace

QString workqSource() {
    QStringList lines;
    for (int i = 1; i <= 60; ++i) {
        switch (i) {
        case 1:
            lines << QStringLiteral("/* workq.c: Netzer's running example (thesis Figure 2.1). */");
            break;
        case 20:
            lines << QStringLiteral("    int head = q.head;                 /* remove a region */");
            break;
        case 21:
            lines << QStringLiteral("    int lo = q.rec[head].lo;");
            break;
        case 22:
            lines << QStringLiteral("    int hi = q.rec[head + 1].hi;");
            break;
        case 23:
            lines << QStringLiteral("    q.head = head + 1;");
            break;
        case 30:
            lines << QStringLiteral("        a[i] = init(i);                 /* initial work */");
            break;
        case 31:
            lines << QStringLiteral(
                "    pthread_mutex_lock(&private_lock); pthread_mutex_unlock(&private_lock);");
            break;
        case 40:
            lines << QStringLiteral(
                "        a[i] = work(a[i]);              /* work on the region */");
            break;
        case 50:
            lines << QStringLiteral("    pthread_create(&left, NULL, child, &left_args);");
            break;
        case 51:
            lines << QStringLiteral("    pthread_create(&right, NULL, child, &right_args);");
            break;
        case 52:
            lines << QStringLiteral("    pthread_join(left, NULL);");
            break;
        case 53:
            lines << QStringLiteral("    pthread_join(right, NULL);");
            break;
        default:
            lines << QStringLiteral("    /* line %1 */").arg(i);
        }
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

void createResultsDatabase(const QString& path) {
    QFile::remove(path);
    QFile schema(QStringLiteral(FIRSTRACE_SCHEMA_SQL));
    if (!schema.open(QIODevice::ReadOnly))
        throw DatabaseError(QStringLiteral("cannot read %1").arg(schema.fileName()), 0);
    SqliteConnection db(path, Mode::ReadWriteCreate);
    db.execute(QString::fromUtf8(schema.readAll()));
}

qint64 addFigureRun(const QString& path) {
    SqliteConnection db(path, Mode::ReadWriteCreate);
    db.execute(QStringLiteral("BEGIN"));
    const qint64 run = nextRunId(db);
    // runs: id, program, arguments, host, started_at, analyzed_at, trace_path, trace_format,
    // tool_version, ordering, truncated, truncation_reason, transitive_budget_exceeded, events,
    // computation_events, accesses, processes, apparent, actual, feasible, feasible_ec,
    // unvalidated, tangles, partitions, first_partitions
    insert(db, "runs",
           "id, program, arguments, host, started_at, analyzed_at, trace_path, trace_format, "
           "tool_version, ordering, truncated, truncation_reason, transitive_budget_exceeded, "
           "events, computation_events, accesses, processes, apparent, actual, feasible, "
           "feasible_ec, unvalidated, tangles, partitions, first_partitions")(
        run, std::nullopt, std::nullopt, std::nullopt, std::nullopt, "2026-11-22T11:00:00Z",
        "samples/traces/figure-2-1.std", "std", "0.1.0", "complete", 0, std::nullopt, 0, 18, 6, 20,
        3, 3, 1, 1, 0, 2, 1, 2, 1);
    auto process = insert(db, "processes", "run_id, id, name, parent, event_count");
    process(run, 0, "T0", std::nullopt, 4);
    process(run, 1, "T1", 0, 7);
    process(run, 2, "T2", 0, 7);
    auto location = insert(db, "locations", "run_id, id, file, line, \"column\", function, pc");
    const int lines[] = {20, 21, 22, 23, 30, 31, 32, 40, 50, 51, 52, 53};
    for (int i = 0; i < 12; ++i)
        location(run, i, "workq.c", lines[i], 5, lines[i] >= 50 ? "main" : "child", 0);
    auto context = insert(db, "contexts", "run_id, id, parent, location");
    context(run, 0, std::nullopt, 8); // main at workq.c:50
    context(run, 1, 0, 7);            // child at workq.c:40, called from main
    auto object = insert(db, "sync_objects", "run_id, id, kind, name, address, initial_value");
    object(run, 0, "lock", "P1", 0, 0);
    object(run, 1, "lock", "P2", 0, 0);

    auto event = insert(db, "events",
                        "run_id, process, idx, kind, object, counter, clock_start, clock_finish, "
                        "context, location, site_count");
    // run, process, idx, kind, object, counter, clock_start, clock_finish, context, location,
    // site_count
    event(run, 0, 0, "fork", 1, 0, 1, 1, 0, 8, 0);
    event(run, 0, 1, "fork", 2, 0, 2, 2, 0, 9, 0);
    event(run, 0, 2, "join", 1, 0, 40, 40, 0, 10, 0);
    event(run, 0, 3, "join", 2, 0, 41, 41, 0, 11, 0);
    for (qint64 p = 1; p <= 2; ++p) {
        const qint64 lock = p - 1;
        const qint64 shift = p - 1;
        event(run, p, 0, "computation", std::nullopt, 0, 3 + shift, 5 + shift, 1, std::nullopt, 1);
        event(run, p, 1, "acquire", lock, 0, 7 + shift, 7 + shift, 1, 5, 0);
        event(run, p, 2, "release", lock, 1, 9 + shift, 9 + shift, 1, 5, 0);
        event(run, p, 3, "computation", std::nullopt, 0, 11 + shift, 18 + shift, 1, std::nullopt,
              4);
        event(run, p, 4, "acquire", lock, 2, 19 + shift, 19 + shift, 1, 6, 0);
        event(run, p, 5, "release", lock, 3, 21 + shift, 21 + shift, 1, 6, 0);
        event(run, p, 6, "computation", std::nullopt, 0, 23 + shift, 30 + shift, 1, std::nullopt,
              1);
    }
    // Access sites: per child, event 0 writes a (site at line 30), event 3 reads and writes the
    // queue (lines 20-23), event 6 writes a (line 40).
    auto site =
        insert(db, "access_sites", "run_id, id, process, event_index, location, kind, flags");
    auto range = insert(db, "site_ranges", "run_id, site, lo, hi");
    qint64 siteId = 0;
    auto addSite = [&](qint64 p, qint64 idx, qint64 loc, const char* kind, qint64 flags, qint64 lo,
                       qint64 hi) {
        site(run, siteId, p, idx, loc, kind, flags);
        range(run, siteId, lo, hi);
        return siteId++;
    };
    // Variables: 0 q.head, 1 q.rec[0].lo, 2 q.rec[1].lo, 3 q.rec[1].hi, 10.. a[i] = 10 + i.
    const qint64 t1a = addSite(1, 0, 4, "write", 2, 21, 30);
    const qint64 t1head = addSite(1, 3, 0, "read", 1, 0, 1);
    addSite(1, 3, 1, "read", 1, 1, 2);
    addSite(1, 3, 2, "read", 1, 3, 4);
    const qint64 t1headw = addSite(1, 3, 3, "write", 2, 0, 1);
    const qint64 t1work = addSite(1, 6, 7, "write", 2, 11, 50);
    const qint64 t2a = addSite(2, 0, 4, "write", 2, 30, 40);
    const qint64 t2head = addSite(2, 3, 0, "read", 1, 0, 1);
    addSite(2, 3, 1, "read", 1, 2, 3);
    addSite(2, 3, 2, "read", 1, 3, 4);
    const qint64 t2headw = addSite(2, 3, 3, "write", 2, 0, 1);
    const qint64 t2work = addSite(2, 6, 7, "write", 2, 40, 51);
    Q_UNUSED(t1a);

    auto edge = insert(db, "graph_edges",
                       "run_id, kind, from_process, from_index, to_process, to_index, transitive");
    edge(run, "ordering", 0, 0, 1, 0, 0);
    edge(run, "ordering", 0, 1, 2, 0, 0);
    edge(run, "ordering", 1, 6, 0, 2, 0);
    edge(run, "ordering", 2, 6, 0, 3, 0);
    edge(run, "shared-data", 1, 3, 2, 3, 0);
    edge(run, "shared-data", 2, 3, 1, 3, 0);
    edge(run, "shared-data", 2, 3, 1, 6, 1);
    edge(run, "event-control", 1, 3, 2, 3, 0);
    edge(run, "event-control", 1, 3, 2, 6, 0);

    auto partition = insert(db, "partitions", "run_id, id, first, race_count");
    partition(run, 0, 1, 1);
    partition(run, 1, 0, 2);
    insert(db, "partition_edges", "run_id, partition_id, after_id, ordinal")(run, 0, 1, 0);
    insert(db, "tangles", "run_id, id, race_count, feasible_count")(run, 0, 2, 0);
    auto race = insert(
        db, "races",
        "run_id, id, a_process, a_index, b_process, b_index, status, tangle, actual, partition");
    race(run, 0, 1, 3, 2, 3, "feasible", std::nullopt, 1, 0);
    race(run, 1, 1, 6, 2, 0, "unvalidated", 0, 0, 1);
    race(run, 2, 1, 6, 2, 6, "unvalidated", 0, 0, 1);
    auto variable = insert(db, "race_variables", "run_id, race_id, ordinal, name, lo, hi");
    variable(run, 0, 0, "q.head", 0, 1);
    variable(run, 1, 0, "a[20]", 30, 31);
    variable(run, 1, 1, "a[29]", 39, 40);
    variable(run, 2, 0, "a[30]", 40, 41);
    variable(run, 2, 1, "a[39]", 49, 50);
    auto access = insert(db, "race_accesses", "run_id, race_id, side, ordinal, site");
    access(run, 0, "a", 0, t1head);
    access(run, 0, "a", 1, t1headw);
    access(run, 0, "b", 0, t2head);
    access(run, 0, "b", 1, t2headw);
    access(run, 1, "a", 0, t1work);
    access(run, 1, "b", 0, t2a);
    access(run, 2, "a", 0, t1work);
    access(run, 2, "b", 0, t2work);
    auto pair =
        insert(db, "site_pairs",
               "run_id, id, site_key, file_1, line_1, function_1, file_2, line_2, function_2");
    pair(run, 0, "workq.c:20 <-> workq.c:20", "workq.c", 20, "child", "workq.c", 20, "child");
    pair(run, 1, "workq.c:30 <-> workq.c:40", "workq.c", 30, "child", "workq.c", 40, "child");
    pair(run, 2, "workq.c:40 <-> workq.c:40", "workq.c", 40, "child", "workq.c", 40, "child");
    auto racePair = insert(db, "race_site_pairs", "run_id, pair_id, race_id");
    racePair(run, 0, 0);
    racePair(run, 1, 1);
    racePair(run, 2, 2);
    const QString text = workqSource();
    insert(db, "source_texts", "id, hash, size, text")(run * 1000, 12345,
                                                       qint64(text.toUtf8().size()), text);
    insert(db, "source_files", "run_id, path, resolved_path, text_id")(run, "workq.c",
                                                                       "/src/workq.c", run * 1000);
    db.execute(QStringLiteral("COMMIT"));
    return run;
}

qint64 addSyntheticRun(const QString& path, const SyntheticRun& spec) {
    SqliteConnection db(path, Mode::ReadWriteCreate);
    db.execute(QStringLiteral("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN"));
    const qint64 run = nextRunId(db);
    const qint64 partitions = (spec.races + spec.racesPerPartition - 1) / spec.racesPerPartition;
    const qint64 perProcess = spec.eventsPerProcess;
    const qint64 computations = spec.processes * ((perProcess + 2) / 3);
    // Statuses cycle feasible, feasible-ec, unvalidated, unvalidated; every fifth race is actual.
    qint64 counts[3] = {0, 0, 0};
    qint64 actual = 0;
    for (qint64 i = 0; i < spec.races; ++i) {
        ++counts[i % 4 == 0 ? 0 : i % 4 == 1 ? 1 : 2];
        if (i % 5 == 0) ++actual;
    }
    insert(db, "runs",
           "id, program, arguments, host, started_at, analyzed_at, trace_path, trace_format, "
           "tool_version, ordering, truncated, truncation_reason, transitive_budget_exceeded, "
           "events, computation_events, accesses, processes, apparent, actual, feasible, "
           "feasible_ec, unvalidated, tangles, partitions, first_partitions")(
        run, "synthetic", std::nullopt, std::nullopt, std::nullopt, "2026-11-22T12:00:00Z",
        "synthetic.trace", "firstrace", "0.1.0", "complete", 0, std::nullopt, 0,
        spec.processes * perProcess, computations, computations, spec.processes, spec.races, actual,
        counts[0], counts[1], counts[2], spec.races / 4, partitions,
        std::min(partitions, spec.firstPartitions));
    auto process = insert(db, "processes", "run_id, id, name, parent, event_count");
    for (int p = 0; p < spec.processes; ++p) {
        if (p == 0)
            process(run, p, QStringLiteral("thread %1").arg(p), std::nullopt, perProcess);
        else
            process(run, p, QStringLiteral("thread %1").arg(p), 0, perProcess);
    }
    auto location = insert(db, "locations", "run_id, id, file, line, \"column\", function, pc");
    for (int i = 0; i < 64; ++i)
        location(run, i, i < 32 ? "src/producer.c" : "src/consumer.c", 10 + (i % 32) * 3, 9,
                 i < 32 ? "produce" : "consume", 0x401000 + i * 16);
    insert(db, "sync_objects", "run_id, id, kind, name, address, initial_value")(
        run, 0, "lock", "queue_lock", 0x7000, 0);
    // Events: computation, acquire, release, repeated. Site id = process * perProcess + idx.
    auto event = insert(db, "events",
                        "run_id, process, idx, kind, object, counter, clock_start, clock_finish, "
                        "context, location, site_count");
    auto site =
        insert(db, "access_sites", "run_id, id, process, event_index, location, kind, flags");
    auto edge = insert(db, "graph_edges",
                       "run_id, kind, from_process, from_index, to_process, to_index, transitive");
    for (int p = 0; p < spec.processes; ++p) {
        for (qint64 idx = 0; idx < perProcess; ++idx) {
            const qint64 clock = idx * spec.processes + p;
            switch (idx % 3) {
            case 0:
                event(run, p, idx, "computation", std::nullopt, 0, clock, clock + 1, std::nullopt,
                      std::nullopt, 1);
                site(run, p * perProcess + idx, p, idx, (p * 7 + idx) % 64, "read-write", 3);
                break;
            case 1:
                event(run, p, idx, "acquire", 0, idx, clock, clock, std::nullopt, (p + idx) % 64,
                      0);
                break;
            default:
                event(run, p, idx, "release", 0, idx, clock, clock, std::nullopt, (p + idx) % 64,
                      0);
                // The lock hands over to the next process' next acquire.
                if (p + 1 < spec.processes && idx + 2 < perProcess)
                    edge(run, "ordering", p, idx, p + 1, idx + 2, 0);
            }
        }
    }
    auto partition = insert(db, "partitions", "run_id, id, first, race_count");
    auto partitionEdge = insert(db, "partition_edges", "run_id, partition_id, after_id, ordinal");
    for (qint64 i = 0; i < partitions; ++i) {
        const qint64 size =
            std::min(spec.racesPerPartition, spec.races - i * spec.racesPerPartition);
        partition(run, i, i < spec.firstPartitions ? 1 : 0, size);
        if (i >= spec.firstPartitions)
            partitionEdge(run, i % spec.firstPartitions, i, i / spec.firstPartitions);
    }
    auto tangle = insert(db, "tangles", "run_id, id, race_count, feasible_count");
    for (qint64 t = 0; t < spec.races / 4; ++t)
        tangle(run, t, 4, 2);
    auto race = insert(
        db, "races",
        "run_id, id, a_process, a_index, b_process, b_index, status, tangle, actual, partition");
    auto variable = insert(db, "race_variables", "run_id, race_id, ordinal, name, lo, hi");
    auto access = insert(db, "race_accesses", "run_id, race_id, side, ordinal, site");
    auto racePair = insert(db, "race_site_pairs", "run_id, pair_id, race_id");
    const qint64 slotCount = (perProcess + 2) / 3;
    for (qint64 i = 0; i < spec.races; ++i) {
        const qint64 a = i % (spec.processes - 1);
        const qint64 b = a + 1 + (i / 7) % (spec.processes - 1 - a);
        const qint64 aIdx = ((i * 13) % slotCount) * 3;
        const qint64 bIdx = ((i * 17 + 5) % slotCount) * 3;
        const char* status = i % 4 == 0 ? "feasible" : i % 4 == 1 ? "feasible-ec" : "unvalidated";
        const qint64 actualFlag = i % 5 == 0 ? 1 : 0;
        if (i % 4 >= 2) // unvalidated races are tangled
            race(run, i, a, aIdx, b, bIdx, status, i / 4, actualFlag, i / spec.racesPerPartition);
        else
            race(run, i, a, aIdx, b, bIdx, status, std::nullopt, actualFlag,
                 i / spec.racesPerPartition);
        variable(run, i, 0, QStringLiteral("buffer[%1]").arg(i % 4096), 0x10000 + (i % 4096) * 8,
                 0x10008 + (i % 4096) * 8);
        access(run, i, "a", 0, a * perProcess + aIdx);
        access(run, i, "b", 0, b * perProcess + bIdx);
        racePair(run, i % 64, i);
    }
    auto pair =
        insert(db, "site_pairs",
               "run_id, id, site_key, file_1, line_1, function_1, file_2, line_2, function_2");
    for (int i = 0; i < 64; ++i) {
        const qint64 consumer = 10 + (i % 32) * 3;
        const qint64 producer = 10 + ((i + i / 32) % 32) * 3;
        pair(run, i,
             QStringLiteral("src/consumer.c:%1 <-> src/producer.c:%2").arg(consumer).arg(producer),
             "src/consumer.c", consumer, "consume", "src/producer.c", producer, "produce");
    }
    db.execute(QStringLiteral("COMMIT"));
    return run;
}

} // namespace firstrace::gui::testing
