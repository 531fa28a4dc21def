// ResultsDatabase over databases built from db-schema/schema.sql: refusing missing, corrupt,
// foreign and newer files, and the queries behind every view.
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include "results_database.hpp"
#include "results_fixture.hpp"

using namespace firstrace::gui;

Q_DECLARE_METATYPE(firstrace::gui::RaceFilter)

class ResultsDatabaseTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString figure_;
    std::unique_ptr<ResultsDatabase> db_;
    qint64 run_ = 0;

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        figure_ = dir_.filePath(QStringLiteral("figure.db"));
        testing::createResultsDatabase(figure_);
        run_ = testing::addFigureRun(figure_);
        auto result = ResultsDatabase::open(figure_);
        QCOMPARE(result.error, ResultsDatabase::OpenError::None);
        db_ = std::move(result.database);
        QVERIFY(db_);
    }

    void refusesMissingFile() {
        const auto result = ResultsDatabase::open(dir_.filePath(QStringLiteral("nope.db")));
        QVERIFY(!result.database);
        QCOMPARE(result.error, ResultsDatabase::OpenError::Missing);
        QVERIFY(result.message.contains(QStringLiteral("nope.db")));
        QVERIFY(!QFile::exists(dir_.filePath(QStringLiteral("nope.db")))); // never created
    }

    void refusesCorruptFile() {
        const QString path = dir_.filePath(QStringLiteral("corrupt.db"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray(4096, 'x'));
        file.close();
        const auto result = ResultsDatabase::open(path);
        QVERIFY(!result.database);
        QCOMPARE(result.error, ResultsDatabase::OpenError::Corrupt);
        QVERIFY(result.message.contains(QStringLiteral("corrupt.db")));
    }

    void refusesTruncatedDatabase() {
        // A real firstrace database cut short in its middle: the header says more pages.
        QFile source(figure_);
        QVERIFY(source.open(QIODevice::ReadOnly));
        const QByteArray bytes = source.readAll();
        const QString path = dir_.filePath(QStringLiteral("truncated.db"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes.left(bytes.size() / 3));
        file.close();
        const auto result = ResultsDatabase::open(path);
        if (result.database) {
            // The pages the open check touched survived; browsing must then fail cleanly.
            QVERIFY_THROWS_EXCEPTION(DatabaseError, {
                for (const RunInfo& run : result.database->runs())
                    result.database->history(run.id, 0);
                result.database->sourceText(run_, QStringLiteral("workq.c"));
                result.database->partitions(run_, RaceFilter(), -1, 100);
                result.database->raceDetails(run_, 2);
            });
        } else {
            QCOMPARE(result.error, ResultsDatabase::OpenError::Corrupt);
        }
    }

    void refusesForeignDatabase() {
        const QString path = dir_.filePath(QStringLiteral("foreign.db"));
        {
            SqliteConnection db(path, SqliteConnection::Mode::ReadWriteCreate);
            db.execute(QStringLiteral("CREATE TABLE runs (id INTEGER); CREATE TABLE races (x)"));
        }
        const auto result = ResultsDatabase::open(path);
        QVERIFY(!result.database);
        QCOMPARE(result.error, ResultsDatabase::OpenError::Foreign);
        QVERIFY(result.message.contains(QStringLiteral("not a firstrace results database")));
    }

    void refusesEmptyFile() {
        const QString path = dir_.filePath(QStringLiteral("empty.db"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        const auto result = ResultsDatabase::open(path);
        QVERIFY(!result.database);
        QCOMPARE(result.error, ResultsDatabase::OpenError::Foreign);
    }

    void refusesNewerSchema() {
        const QString path = dir_.filePath(QStringLiteral("newer.db"));
        testing::createResultsDatabase(path);
        {
            SqliteConnection db(path, SqliteConnection::Mode::ReadWriteCreate);
            db.execute(QStringLiteral("PRAGMA user_version = %1")
                           .arg(ResultsDatabase::kSchemaVersion + 1));
        }
        const auto result = ResultsDatabase::open(path);
        QVERIFY(!result.database);
        QCOMPARE(result.error, ResultsDatabase::OpenError::TooNew);
        QVERIFY(result.message.contains(QStringLiteral("newer")));
    }

    void readsRuns() {
        const auto runs = db_->runs();
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0].id, run_);
        QCOMPARE(runs[0].tracePath, QStringLiteral("samples/traces/figure-2-1.std"));
        QCOMPARE(runs[0].races, 3);
        QCOMPARE(runs[0].feasible, 1);
        QCOMPARE(runs[0].unvalidated, 2);
        QCOMPARE(runs[0].firstPartitions, 1);
        QCOMPARE(db_->threadNames(run_), (QStringList{"T0", "T1", "T2"}));
        QCOMPARE(db_->raceFiles(run_), QStringList{"workq.c"});
    }

    void listsPartitionsFirstOnTop() {
        auto partitions = db_->partitions(run_, RaceFilter(), -1, 10);
        QCOMPARE(partitions.size(), 2);
        QVERIFY(!partitions[0].counted);
        QCOMPARE(partitions[1].races, 2); // the size, before counting
        db_->countRaces(run_, RaceFilter(), partitions);
        QVERIFY(partitions[0].counted && partitions[1].counted);
        QCOMPARE(partitions[0].id, 0);
        QVERIFY(partitions[0].first);
        QCOMPARE(partitions[0].races, 1);
        QCOMPARE(partitions[0].feasible, 1);
        QCOMPARE(partitions[0].actual, 1);
        QVERIFY(!partitions[1].first);
        QCOMPARE(partitions[1].races, 2);
        QCOMPARE(partitions[1].unvalidated, 2);
        // Keyset paging.
        const auto second = db_->partitions(run_, RaceFilter(), 0, 10);
        QCOMPARE(second.size(), 1);
        QCOMPARE(second[0].id, 1);
    }

    void listsRaces() {
        const auto races = db_->races(run_, 1, RaceFilter(), -1, 10);
        QCOMPARE(races.size(), 2);
        QCOMPARE(races[0].id, 1);
        QCOMPARE(races[0].threadA, QStringLiteral("T1"));
        QCOMPARE(races[0].indexA, 6);
        QCOMPARE(races[0].threadB, QStringLiteral("T2"));
        QCOMPARE(races[0].indexB, 0);
        QCOMPARE(races[0].locationA, QStringLiteral("workq.c:40"));
        QCOMPARE(races[0].locationB, QStringLiteral("workq.c:30"));
        QCOMPARE(races[0].variables, QStringLiteral("a[20], a[29]"));
        QCOMPARE(races[0].status, RaceStatus::Unvalidated);
        QCOMPARE(races[0].tangle, std::optional<qint64>(0));
    }

    void filters_data() {
        QTest::addColumn<RaceFilter>("filter");
        QTest::addColumn<QList<qint64>>("races");
        RaceFilter feasible;
        feasible.statuses = {RaceStatus::Feasible};
        QTest::newRow("status feasible") << feasible << QList<qint64>{0};
        RaceFilter unvalidated;
        unvalidated.statuses = {RaceStatus::Unvalidated, RaceStatus::FeasibleEc};
        QTest::newRow("status unvalidated") << unvalidated << QList<qint64>{1, 2};
        RaceFilter actual;
        actual.actualOnly = true;
        QTest::newRow("actual") << actual << QList<qint64>{0};
        RaceFilter thread;
        thread.thread = QStringLiteral("T0");
        QTest::newRow("thread without races") << thread << QList<qint64>{};
        thread.thread = QStringLiteral("T2");
        QTest::newRow("thread") << thread << QList<qint64>{0, 1, 2};
        RaceFilter file;
        file.file = QStringLiteral("workq.c");
        QTest::newRow("file") << file << QList<qint64>{0, 1, 2};
        file.file = QStringLiteral("other.c");
        QTest::newRow("other file") << file << QList<qint64>{};
        RaceFilter search;
        search.search = QStringLiteral("q.head");
        QTest::newRow("search variable") << search << QList<qint64>{0};
        search.search = QStringLiteral("a[3");
        QTest::newRow("search variable prefix") << search << QList<qint64>{2};
        search.search = QStringLiteral("workq.c:30");
        QTest::newRow("search line") << search << QList<qint64>{1};
        search.search = QStringLiteral("#2");
        QTest::newRow("search id") << search << QList<qint64>{2};
        search.search = QStringLiteral("100%");
        QTest::newRow("search escapes LIKE") << search << QList<qint64>{};
    }

    void filters() {
        QFETCH(RaceFilter, filter);
        QFETCH(QList<qint64>, races);
        QList<qint64> found;
        auto partitions = db_->partitions(run_, filter, -1, 10);
        db_->countRaces(run_, filter, partitions);
        for (const PartitionSummary& p : partitions) {
            qint64 count = 0;
            for (const RaceSummary& race : db_->races(run_, p.id, filter, -1, 10)) {
                found << race.id;
                ++count;
                QVERIFY(db_->raceMatches(run_, race.id, filter));
            }
            QCOMPARE(p.races, count); // counts are over matching races
        }
        QCOMPARE(found, races);
    }

    void rowsOfRaces() {
        RaceFilter unvalidated;
        unvalidated.statuses = {RaceStatus::Unvalidated};
        QCOMPARE(db_->partitionRow(run_, 1, RaceFilter()), 1);
        QCOMPARE(db_->partitionRow(run_, 1, unvalidated), 0);
        QCOMPARE(db_->raceRow(run_, 1, 2, RaceFilter()), 1);
        QCOMPARE(db_->firstRace(run_, RaceFilter()), std::optional<qint64>(0));
        QCOMPARE(db_->firstRace(run_, unvalidated), std::optional<qint64>(1));
    }

    void raceDetails() {
        const auto details = db_->raceDetails(run_, 0);
        QVERIFY(details);
        QCOMPARE(details->variables, QStringList{"q.head"});
        QCOMPARE(details->a.thread, QStringLiteral("T1"));
        QCOMPARE(details->a.index, 3);
        QCOMPARE(details->a.kind, QStringLiteral("computation"));
        QCOMPARE(details->a.clockStart, std::optional<qint64>(11));
        QCOMPARE(details->a.context.size(), 2);
        QCOMPARE(details->a.context[0].function, QStringLiteral("child"));
        QCOMPARE(details->a.context[1].function, QStringLiteral("main"));
        QCOMPARE(details->sitesA.size(), 2);
        QCOMPARE(details->sitesA[0].location(), QStringLiteral("workq.c:20"));
        QCOMPARE(details->sitesA[0].kind, QStringLiteral("read"));
        QCOMPARE(details->sitesA[1].location(), QStringLiteral("workq.c:23"));
        QCOMPARE(details->sitesB[1].kind, QStringLiteral("write"));
        QVERIFY(!db_->raceDetails(run_, 99));
    }

    void sourceText() {
        const SourceText text = db_->sourceText(run_, QStringLiteral("workq.c"));
        QVERIFY(text.available);
        QCOMPARE(text.text, testing::workqSource());
        QVERIFY(!db_->sourceText(run_, QStringLiteral("missing.c")).available);
    }

    void historyOfSmallRunIsWhole() {
        const HistoryData history = db_->history(run_, 0);
        QCOMPARE(history.focusRace, 0);
        QCOMPARE(history.lanes.size(), 3);
        QCOMPARE(history.events.size(), 18);
        QCOMPARE(history.races.size(), 3);
        int sync = 0, shared = 0, control = 0;
        for (const HistoryEdge& edge : history.edges) {
            sync += edge.kind == HistoryEdgeKind::Synchronization;
            shared += edge.kind == HistoryEdgeKind::SharedData;
            control += edge.kind == HistoryEdgeKind::EventControl;
        }
        QCOMPARE(sync, 4);
        QCOMPARE(shared, 3);
        QCOMPARE(control, 2);
        for (const HistoryEvent& event : history.events) {
            if (event.key == EventKey{1, 3}) {
                QVERIFY(event.computation);
                QCOMPARE(event.label, QStringLiteral("workq.c:20,21,22,23"));
            }
            if (event.key == EventKey{0, 0}) {
                QVERIFY(!event.computation);
                QCOMPARE(event.label, QStringLiteral("fork T1"));
            }
            if (event.key == EventKey{2, 1}) QCOMPARE(event.label, QStringLiteral("acquire P2"));
        }
    }

    void historyOfLargeRunIsAWindow() {
        const QString path = dir_.filePath(QStringLiteral("synthetic.db"));
        testing::createResultsDatabase(path);
        testing::SyntheticRun spec;
        spec.races = 500;
        spec.eventsPerProcess = 300;
        const qint64 run = testing::addSyntheticRun(path, spec);
        auto db = ResultsDatabase::open(path).database;
        QVERIFY(db);
        const auto details = db->raceDetails(run, 123);
        QVERIFY(details);
        const HistoryData history = db->history(run, 123, 6, 3);
        QVERIFY(history.events.size() < 200);
        bool hasA = false, hasB = false, focus = false;
        for (const HistoryEvent& event : history.events) {
            hasA |= event.key == EventKey{details->a.process, details->a.index};
            hasB |= event.key == EventKey{details->b.process, details->b.index};
        }
        for (const HistoryRace& race : history.races)
            focus |= race.id == 123;
        QVERIFY(hasA && hasB && focus);
        for (const HistoryLane& lane : history.lanes) {
            QVERIFY(lane.lastIndex - lane.firstIndex < 15);
            QCOMPARE(lane.eventCount, 300);
        }
        // The lanes of the racing processes span the requested window.
        for (const HistoryLane& lane : history.lanes)
            if (lane.process == details->a.process)
                QVERIFY(lane.firstIndex <= details->a.index && details->a.index <= lane.lastIndex);
        // The partner processes of the lock hand-overs are shown too.
        QVERIFY(history.lanes.size() > 2 || details->b.process == details->a.process + 1);
    }
};

QTEST_GUILESS_MAIN(ResultsDatabaseTest)
#include "tst_results_database.moc"
