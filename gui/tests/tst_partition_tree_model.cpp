// The lazy item models: the partition tree (first partitions on top, races as children, paging
// by fetchMore, filters, locating a race) and the run list, checked by QAbstractItemModelTester.
#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "partition_tree_model.hpp"
#include "results_database.hpp"
#include "results_fixture.hpp"
#include "run_list_model.hpp"

using namespace firstrace::gui;

class PartitionTreeModelTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::unique_ptr<ResultsDatabase> figure_;
    std::unique_ptr<ResultsDatabase> synthetic_;
    qint64 figureRun_ = 0;
    qint64 syntheticRun_ = 0;

  private slots:
    void initTestCase() {
        const QString figure = dir_.filePath(QStringLiteral("figure.db"));
        testing::createResultsDatabase(figure);
        figureRun_ = testing::addFigureRun(figure);
        figure_ = ResultsDatabase::open(figure).database;
        QVERIFY(figure_);
        // 1234 races: 2 first partitions of 500 races (pages of 200), then one of 234.
        const QString synthetic = dir_.filePath(QStringLiteral("synthetic.db"));
        testing::createResultsDatabase(synthetic);
        testing::addFigureRun(synthetic);
        testing::SyntheticRun spec;
        spec.races = 1234;
        spec.racesPerPartition = 500;
        spec.firstPartitions = 2;
        spec.eventsPerProcess = 120;
        syntheticRun_ = testing::addSyntheticRun(synthetic, spec);
        synthetic_ = ResultsDatabase::open(synthetic).database;
        QVERIFY(synthetic_);
    }

    void runList() {
        RunListModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setDatabase(synthetic_.get());
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(1).data(RunListModel::RunIdRole).toLongLong(), syntheticRun_);
        QVERIFY(model.index(0).data().toString().contains(QStringLiteral("figure-2-1.std")));
        QVERIFY(
            model.index(1).data(Qt::ToolTipRole).toString().contains(QStringLiteral("1234 races")));
        QCOMPARE(model.rowOfRun(syntheticRun_), 1);
        model.setDatabase(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void figureTree() {
        PartitionTreeModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRun(figure_.get(), figureRun_);
        QCOMPARE(model.rowCount(), 2);
        QVERIFY(!model.canFetchMore(QModelIndex()));
        const QModelIndex first = model.index(0, PartitionTreeModel::NameColumn);
        QVERIFY(first.data(PartitionTreeModel::FirstPartitionRole).toBool());
        QCOMPARE(first.data().toString(), QStringLiteral("Partition 0 \u2014 first"));
        QVERIFY(first.data(Qt::FontRole).value<QFont>().bold());
        QVERIFY(!first.data(Qt::DecorationRole).value<QIcon>().isNull());
        QCOMPARE(model.index(0, PartitionTreeModel::StatusColumn).data().toString(),
                 QStringLiteral("1 race: 1 feasible, 1 actual"));
        QVERIFY(!model.index(1, 0).data(PartitionTreeModel::FirstPartitionRole).toBool());

        // Races load when the partition is expanded.
        QVERIFY(model.hasChildren(first));
        QCOMPARE(model.rowCount(first), 0);
        QVERIFY(model.canFetchMore(first));
        model.fetchMore(first);
        QCOMPARE(model.rowCount(first), 1);
        const QModelIndex race = model.index(0, 0, first);
        QCOMPARE(race.data(PartitionTreeModel::RaceIdRole).toLongLong(), 0);
        QCOMPARE(race.parent(), first);
        QCOMPARE(model.index(0, PartitionTreeModel::StatusColumn, first).data().toString(),
                 QStringLiteral("feasible, actual"));
        QCOMPARE(model.index(0, PartitionTreeModel::ThreadsColumn, first).data().toString(),
                 QStringLiteral("T1 #3 \u2194 T2 #3"));
        QCOMPARE(model.index(0, PartitionTreeModel::SitesColumn, first).data().toString(),
                 QStringLiteral("workq.c:20"));
        QCOMPARE(model.index(0, PartitionTreeModel::VariablesColumn, first).data().toString(),
                 QStringLiteral("q.head"));
        const QModelIndex second = model.index(1, 0);
        model.fetchMore(second);
        QCOMPARE(model.index(1, PartitionTreeModel::StatusColumn, second).data().toString(),
                 QStringLiteral("unvalidated, tangle 0"));
    }

    void filterRebuildsTree() {
        PartitionTreeModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRun(figure_.get(), figureRun_);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        RaceFilter filter;
        filter.statuses = {RaceStatus::Unvalidated};
        model.setFilter(filter);
        QCOMPARE(reset.count(), 1);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, 0).data(PartitionTreeModel::PartitionIdRole).toLongLong(), 1);
        model.setFilter(filter); // unchanged: no reset
        QCOMPARE(reset.count(), 1);
        filter.search = QStringLiteral("a[39]");
        model.setFilter(filter);
        model.fetchMore(model.index(0, 0));
        QCOMPARE(model.rowCount(model.index(0, 0)), 1);
        QCOMPARE(
            model.index(0, 0, model.index(0, 0)).data(PartitionTreeModel::RaceIdRole).toLongLong(),
            2);
        QCOMPARE(model.index(0, PartitionTreeModel::StatusColumn).data().toString(),
                 QStringLiteral("1 race: 1 unvalidated"));
    }

    void pagesRacesAndPartitions() {
        PartitionTreeModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRun(synthetic_.get(), syntheticRun_);
        QCOMPARE(model.rowCount(), 3);
        QVERIFY(model.index(0, 0).data(PartitionTreeModel::FirstPartitionRole).toBool());
        QVERIFY(model.index(1, 0).data(PartitionTreeModel::FirstPartitionRole).toBool());
        QVERIFY(!model.index(2, 0).data(PartitionTreeModel::FirstPartitionRole).toBool());
        const QModelIndex big = model.index(0, 0);
        QCOMPARE(model.index(0, PartitionTreeModel::StatusColumn).data().toString(),
                 QStringLiteral(
                     "500 races: 125 feasible, 125 feasible-ec, 250 unvalidated, 100 actual"));
        int expected = 0;
        while (model.canFetchMore(big)) {
            model.fetchMore(big);
            expected = std::min(expected + PartitionTreeModel::kPageSize, 500);
            QCOMPARE(model.rowCount(big), expected);
        }
        QCOMPARE(model.rowCount(big), 500);
        QCOMPARE(model.index(499, 0, big).data(PartitionTreeModel::RaceIdRole).toLongLong(), 499);
    }

    void pagesPartitions() {
        const QString path = dir_.filePath(QStringLiteral("many.db"));
        testing::createResultsDatabase(path);
        testing::SyntheticRun spec;
        spec.races = 1000;
        spec.racesPerPartition = 2; // 500 partitions: 3 pages
        spec.eventsPerProcess = 60;
        const qint64 run = testing::addSyntheticRun(path, spec);
        auto db = ResultsDatabase::open(path).database;
        PartitionTreeModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRun(db.get(), run);
        QCOMPARE(model.rowCount(), PartitionTreeModel::kPageSize);
        QVERIFY(model.canFetchMore(QModelIndex()));
        model.fetchMore(QModelIndex());
        model.fetchMore(QModelIndex());
        QCOMPARE(model.rowCount(), 500);
        QVERIFY(!model.canFetchMore(QModelIndex()));
        QVERIFY(model.allPartitionsLoaded());
        for (int row = 0; row < 500; ++row)
            QCOMPARE(model.index(row, 0).data(PartitionTreeModel::PartitionIdRole).toLongLong(),
                     row);

        // Locating a race deep down loads the pages up to it.
        PartitionTreeModel fresh;
        fresh.setRun(db.get(), run);
        const QModelIndex index = fresh.indexOfRace(901);
        QVERIFY(index.isValid());
        QCOMPARE(index.data(PartitionTreeModel::RaceIdRole).toLongLong(), 901);
        QCOMPARE(index.parent().row(), 450);
        QCOMPARE(index.row(), 1);
        QVERIFY(fresh.loadedPartitions() >= 451);
        QVERIFY(!fresh.indexOfRace(5000).isValid());
        // A race the filter hides has no row.
        RaceFilter feasible;
        feasible.statuses = {RaceStatus::Feasible};
        fresh.setFilter(feasible);
        QVERIFY(!fresh.indexOfRace(901).isValid()); // 901 % 4 == 1: feasible-ec
        QVERIFY(fresh.indexOfRace(900).isValid());
        QCOMPARE(fresh.indexOfRace(900).row(), 0);
    }

    void reportsDatabaseErrors() {
        const QString path = dir_.filePath(QStringLiteral("vanishing.db"));
        testing::createResultsDatabase(path);
        const qint64 run = testing::addFigureRun(path);
        auto db = ResultsDatabase::open(path).database;
        QVERIFY(db);
        {
            // Another process drops a table the tree needs while the browser has it open.
            SqliteConnection writer(path, SqliteConnection::Mode::ReadWriteCreate);
            writer.execute(
                QStringLiteral("DROP VIEW first_races; DROP VIEW race_sites; DROP TABLE races"));
        }
        PartitionTreeModel model;
        QSignalSpy errors(&model, &PartitionTreeModel::errorOccurred);
        model.setRun(db.get(), run);
        QCOMPARE(model.rowCount(), 2); // the partitions table is still there
        QCOMPARE(errors.count(), 0);
        // Counting the shown rows fails once, and is not retried row by row.
        model.index(0, PartitionTreeModel::StatusColumn).data();
        model.index(1, PartitionTreeModel::StatusColumn).data();
        QCOMPARE(errors.count(), 1);
        QVERIFY(errors.front().front().toString().contains(QStringLiteral("races")));
        // Expanding a partition fails the same way and leaves it empty.
        const QModelIndex first = model.index(0, 0);
        QVERIFY(model.canFetchMore(first));
        model.fetchMore(first);
        QCOMPARE(errors.count(), 2);
        QCOMPARE(model.rowCount(first), 0);
        QVERIFY(!model.canFetchMore(first));
    }
};

QTEST_MAIN(PartitionTreeModelTest)
#include "tst_partition_tree_model.moc"
