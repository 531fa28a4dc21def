// ResultsDatabase over databases written by the analyzer's writer (firstrace::write_run, as
// `firstrace analyze -o`): refusing missing, corrupt, foreign and newer files, and the queries
// behind every view.
#include <QFile>
#include <QSet>
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
        run_ = testing::writeFigureRun(figure_, dir_.filePath(QStringLiteral("src")));
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
                for (const StoredRun& run : result.database->runs())
                    result.database->history(run.id, 0);
                result.database->sourceText(run_, QStringLiteral("workq.c"));
                RaceSiteCursor cursor;
                result.database->raceSites(run_, RaceFilter(), cursor, 100);
                result.database->raceDetails(run_, 2);
            });
        } else {
            QCOMPARE(result.error, ResultsDatabase::OpenError::Corrupt);
        }
    }

    void refusesForeignDatabase() {
        // An SQLite database of another program: application_id 0.
        const QString path = dir_.filePath(QStringLiteral("foreign.db"));
        testing::copyWithHeader(figure_, path, std::nullopt, 0);
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
        testing::copyWithHeader(
            figure_, path, quint32(firstrace::results_database_schema_version() + 1), std::nullopt);
        const auto result = ResultsDatabase::open(path);
        QVERIFY(!result.database);
        QCOMPARE(result.error, ResultsDatabase::OpenError::TooNew);
        QVERIFY(result.message.contains(QStringLiteral("newer")));
    }

    void readsRuns() {
        const auto runs = db_->runs();
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs[0].id, run_);
        QVERIFY(runs[0].tracePath.endsWith(QStringLiteral("samples/traces/figure-2-1.std")));
        QCOMPARE(runs[0].races, 3);
        QCOMPARE(runs[0].feasible, 2);
        QCOMPARE(runs[0].unvalidated, 1);
        QCOMPARE(runs[0].firstPartitions, 1);
        QCOMPARE(db_->threadNames(run_), (QStringList{"T0", "T1", "T2"}));
        QCOMPARE(db_->raceFiles(run_), QStringList{"workq.c"});
        const StatusCounts counts = db_->statusCounts(run_, RaceFilter());
        QCOMPARE(counts.races, 3);
        QCOMPARE(counts.feasible, 2);
        QCOMPARE(counts.unvalidated, 1);
        QCOMPARE(counts.actual, 2);
    }

    void listsRaceSitesFirstPartitionsFirst() {
        // Race 0 (feasible, first partition 0) is an instance of 20<->23 and 23<->23; race 2
        // (feasible, partition 2) of 40<->40; race 1 (unvalidated, partition 1) of 30<->40.
        RaceSiteCursor cursor;
        auto sites = db_->raceSites(run_, RaceFilter(), cursor, 10);
        QVERIFY(cursor.done);
        QCOMPARE(sites.size(), 4);
        QCOMPARE(sites[0].key, QStringLiteral("workq.c:20 <-> workq.c:23"));
        QCOMPARE(sites[0].group, RaceGroup::FirstPartition);
        QCOMPARE(sites[0].leadRace, 0);
        QCOMPARE(sites[0].variable, QStringLiteral("q.head"));
        QCOMPARE(sites[0].first.location(), QStringLiteral("workq.c:20"));
        QCOMPARE(sites[0].second.location(), QStringLiteral("workq.c:23"));
        QCOMPARE(sites[1].key, QStringLiteral("workq.c:23 <-> workq.c:23"));
        QCOMPARE(sites[2].key, QStringLiteral("workq.c:40 <-> workq.c:40"));
        QCOMPARE(sites[2].group, RaceGroup::Validated);
        QCOMPARE(sites[2].leadRace, 2);
        QCOMPARE(sites[3].key, QStringLiteral("workq.c:30 <-> workq.c:40"));
        QCOMPARE(sites[3].group, RaceGroup::Other);
        QCOMPARE(sites[3].variable, QStringLiteral("a[20], a[29]"));
        QVERIFY(!sites[0].counted);
        db_->countSiteRaces(run_, RaceFilter(), sites);
        QCOMPARE(sites[0].counts.races, 1);
        QCOMPARE(sites[0].counts.feasible, 1);
        QCOMPARE(sites[0].counts.actual, 1);
        QCOMPARE(sites[3].counts.unvalidated, 1);
        // Paging: one site at a time continues where the last page stopped.
        RaceSiteCursor paged;
        QStringList keys;
        for (int page = 0; page < 10 && !paged.done; ++page)
            for (const RaceSiteRow& site : db_->raceSites(run_, RaceFilter(), paged, 1))
                keys << site.key;
        QCOMPARE(keys.size(), 4);
        QCOMPARE(keys[2], sites[2].key);
    }

    void listsRacesOfASite() {
        const auto races = db_->siteRaces(run_, 2, RaceFilter(), RaceOrderKey(), 10);
        QCOMPARE(races.size(), 1);
        QCOMPARE(races[0].id, 1);
        QCOMPARE(races[0].threadA, QStringLiteral("T1"));
        QCOMPARE(races[0].indexA, 6);
        QCOMPARE(races[0].threadB, QStringLiteral("T2"));
        QCOMPARE(races[0].indexB, 0);
        QCOMPARE(races[0].locationA, QStringLiteral("workq.c:40"));
        QCOMPARE(races[0].locationB, QStringLiteral("workq.c:30"));
        QCOMPARE(races[0].variables, QStringLiteral("a[20], a[29]"));
        QCOMPARE(races[0].status, RaceStatus::Unvalidated);
        QVERIFY(!races[0].firstPartition);
        QCOMPARE(db_->pairsOfRace(run_, 0), (QList<qint64>{0, 1}));
        QCOMPARE(db_->pairsOfRace(run_, 1), QList<qint64>{2});
        const auto key = db_->orderKey(run_, 0);
        QVERIFY(key);
        QCOMPARE(key->group, int(RaceGroup::FirstPartition));
    }

    void filters_data() {
        QTest::addColumn<RaceFilter>("filter");
        QTest::addColumn<QList<qint64>>("races");
        RaceFilter feasible;
        feasible.statuses = {RaceStatus::Feasible};
        QTest::newRow("status feasible") << feasible << QList<qint64>{0, 2};
        RaceFilter unvalidated;
        unvalidated.statuses = {RaceStatus::Unvalidated, RaceStatus::FeasibleEc};
        QTest::newRow("status unvalidated") << unvalidated << QList<qint64>{1};
        RaceFilter actual;
        actual.actualOnly = true;
        QTest::newRow("actual") << actual << QList<qint64>{0, 2};
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
        QSet<qint64> found;
        RaceSiteCursor cursor;
        auto sites = db_->raceSites(run_, filter, cursor, 10);
        db_->countSiteRaces(run_, filter, sites);
        for (const RaceSiteRow& site : sites) {
            qint64 count = 0;
            for (const RaceSummary& race :
                 db_->siteRaces(run_, site.pairId, filter, RaceOrderKey(), 10)) {
                found << race.id;
                ++count;
                QVERIFY(db_->raceMatches(run_, race.id, filter));
            }
            QVERIFY(count > 0);                 // a site is listed for a matching race
            QCOMPARE(site.counts.races, count); // counts are over matching races
        }
        QList<qint64> sorted = found.values();
        std::sort(sorted.begin(), sorted.end());
        QCOMPARE(sorted, races);
    }

    void raceDetails() {
        const auto details = db_->raceDetails(run_, 0);
        QVERIFY(details);
        QCOMPARE(details->variables, QStringList{"q.head"});
        QCOMPARE(details->memory, QStringLiteral("q.head"));
        QCOMPARE(details->a.thread, QStringLiteral("T1"));
        QCOMPARE(details->a.index, 3);
        QCOMPARE(details->a.kind, QStringLiteral("computation"));
        QCOMPARE(details->a.clockStart, std::optional<qint64>(17));
        QCOMPARE(details->a.parentThread, QStringLiteral("T0"));
        QCOMPARE(details->a.creationStack.value(0).location(), QStringLiteral("workq.c:50"));
        QVERIFY(details->a.locksHeld.isEmpty()); // P1 was released before event 3
        QCOMPARE(details->sitesA.size(), 2);
        QCOMPARE(details->sitesA[0].access.location(), QStringLiteral("workq.c:20"));
        QCOMPARE(details->sitesA[0].kind, QStringLiteral("read"));
        QCOMPARE(details->sitesA[1].access.location(), QStringLiteral("workq.c:23"));
        QCOMPARE(details->sitesB[1].kind, QStringLiteral("write"));
        QVERIFY(details->orderedAfter.partitions.isEmpty()); // a first partition
        QVERIFY(!db_->raceDetails(run_, 99));
        // Race 1 is in partition 1, directly after partition 0, whose race is race 0.
        const auto later = db_->raceDetails(run_, 1);
        QVERIFY(later);
        QCOMPARE(later->orderedAfter.partitions, QList<qint64>{0});
        QCOMPARE(later->orderedAfter.race, std::optional<qint64>(0));
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
        QVERIFY(history.hasClock());
        int sync = 0, shared = 0, control = 0;
        for (const HistoryEdge& edge : history.edges) {
            sync += edge.kind == HistoryEdgeKind::Synchronization;
            shared += edge.kind == HistoryEdgeKind::SharedData;
            control += edge.kind == HistoryEdgeKind::EventControl;
        }
        QCOMPARE(sync, 4);
        QCOMPARE(shared, 5);
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

    void historyShowsTheChainOrderingALaterRace() {
        // Race 1 <(1,6),(2,0)> is ordered after race 0 <(1,3),(2,3)>: both events of race 0
        // reach (1,6) through T1's process order (and the event-control edge (2,3)->(1,3)). The
        // chain is the analysis' stored one (schema version 3), whose runs of process order are
        // shortened to their ends.
        const HistoryData history = db_->history(run_, 1, 6, 3, 0);
        QCOMPARE(history.orderedAfterRace, std::optional<qint64>(0));
        QVERIFY(!history.orderChain.isEmpty());
        const QList<EventKey> ends{history.orderChain.front(), history.orderChain.back()};
        QVERIFY(ends[0] == (EventKey{1, 3}) || ends[0] == (EventKey{2, 3}));
        QVERIFY(ends[1] == (EventKey{1, 6}) || ends[1] == (EventKey{2, 0}));
        for (int i = 1; i < history.orderChain.size(); ++i) {
            const EventKey& from = history.orderChain[i - 1];
            const EventKey& to = history.orderChain[i];
            bool linked = from.process == to.process && from.index < to.index;
            for (const HistoryEdge& edge : history.edges)
                linked |=
                    edge.kind != HistoryEdgeKind::SharedData && edge.from == from && edge.to == to;
            QVERIFY(linked);
        }
    }

    void historyOfLargeRunIsAWindow() {
        const QString path = dir_.filePath(QStringLiteral("synthetic.db"));
        const qint64 run = testing::writeSyntheticRun(path, 500);
        auto db = ResultsDatabase::open(path).database;
        QVERIFY(db);
        const auto details = db->raceDetails(run, 123);
        QVERIFY(details);
        const HistoryData history = db->history(run, 123, 6, 3);
        QVERIFY(history.events.size() < 400);
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
            QCOMPARE(lane.eventCount, 4000);
        }
        // The lanes of the racing processes span the requested window.
        for (const HistoryLane& lane : history.lanes)
            if (lane.process == details->a.process)
                QVERIFY(lane.firstIndex <= details->a.index && details->a.index <= lane.lastIndex);
    }
};

QTEST_GUILESS_MAIN(ResultsDatabaseTest)
#include "tst_results_database.moc"
