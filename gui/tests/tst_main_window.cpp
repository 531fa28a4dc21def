// The main window under the offscreen platform: opening a database selects the first race of
// the first partition and fills the details, sources and history; message boxes (non-blocking)
// for missing, corrupt and foreign files; filters; jumping from a race edge of the history;
// copying a partition; recent files and layout persistence.
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "history_view.hpp"
#include "main_window.hpp"
#include "partition_tree_model.hpp"
#include "race_details_view.hpp"
#include "results_fixture.hpp"
#include "run_list_model.hpp"
#include "source_view.hpp"
#include "sqlite_connection.hpp"

using namespace firstrace::gui;

class MainWindowTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString db_;

    QMessageBox* openMessageBox(MainWindow& window) {
        const auto boxes = window.findChildren<QMessageBox*>();
        for (QMessageBox* box : boxes)
            if (box->isVisible()) return box;
        return nullptr;
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QStandardPaths::setTestModeEnabled(true);
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope,
                           dir_.filePath(QStringLiteral("settings")));
        QCoreApplication::setOrganizationName(QStringLiteral("firstrace-test"));
        QCoreApplication::setApplicationName(QStringLiteral("firstrace-gui-test"));
        db_ = dir_.filePath(QStringLiteral("figure.db"));
        testing::createResultsDatabase(db_);
        testing::addFigureRun(db_);
    }

    void init() { QSettings().clear(); }

    void opensAndSelectsFirstRace() {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy opened(&window, &MainWindow::databaseOpened);
        QVERIFY(window.openDatabase(db_));
        QCOMPARE(opened.count(), 1);
        QVERIFY(window.windowTitle().contains(QStringLiteral("figure.db")));
        // First partition expanded, its first race selected.
        QCOMPARE(window.selectedRace(), std::optional<qint64>(0));
        QCOMPARE(window.selectedPartition(), std::optional<qint64>(0));
        QVERIFY(window.partitionTree()->isExpanded(window.partitionModel()->index(0, 0)));
        // Details: summary, both sides, the two sources with lines 20 and 23 highlighted.
        QVERIFY(window.raceDetails()->summaryText().contains(QStringLiteral("Race 0")));
        QVERIFY(window.raceDetails()->summaryText().contains(QStringLiteral("q.head")));
        QVERIFY(window.raceDetails()->sideText(0).contains(QStringLiteral("T1")));
        QVERIFY(window.raceDetails()->sideText(1).contains(QStringLiteral("T2")));
        QVERIFY(window.raceDetails()->sideText(0).contains(QStringLiteral("workq.c:23")));
        QVERIFY(window.raceDetails()->sideText(0).contains(QStringLiteral("child"))); // context
        QCOMPARE(window.raceDetails()->sourceA()->file(), QStringLiteral("workq.c"));
        QCOMPARE(window.raceDetails()->sourceA()->highlightedLines(), (QList<int>{20, 23}));
        QCOMPARE(window.raceDetails()->sourceB()->highlightedLines(), (QList<int>{20, 23}));
        QCOMPARE(window.raceDetails()->sourceA()->displayedText(), testing::workqSource());
        // History: the whole (small) run with the race's edge.
        QCOMPARE(window.historyView()->history().focusRace, 0);
        QCOMPARE(window.historyView()->history().events.size(), 18);
        QVERIFY(window.historyView()->raceEdgeMidpoint(0));
    }

    void selectingARaceUpdatesTheViews() {
        MainWindow window;
        window.show();
        QVERIFY(window.openDatabase(db_));
        QSignalSpy selected(&window, &MainWindow::raceSelected);
        QVERIFY(window.selectRace(2));
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.front().front().toLongLong(), 2);
        QCOMPARE(window.selectedRace(), std::optional<qint64>(2));
        QCOMPARE(window.selectedPartition(), std::optional<qint64>(1));
        QVERIFY(window.raceDetails()->summaryText().contains(QStringLiteral("tangle 0")));
        QCOMPARE(window.raceDetails()->sourceA()->highlightedLines(), QList<int>{40});
        QCOMPARE(window.historyView()->history().focusTangle, std::optional<qint64>(0));
        QVERIFY(!window.selectRace(42));
        QCOMPARE(window.selectedRace(), std::optional<qint64>(2));
    }

    void clickingARaceEdgeJumpsToTheRace() {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openDatabase(db_));
        HistoryView* history = window.historyView();
        const auto mid = history->raceEdgeMidpoint(2); // (race 1's edge crosses race 0's)
        QVERIFY(mid);
        HistoryCanvas* canvas = history->canvas();
        canvas->centerOn(*mid);
        const QPoint point = canvas->mapFromScene(*mid);
        QVERIFY(canvas->viewport()->rect().contains(point));
        QTest::mouseClick(canvas->viewport(), Qt::LeftButton, {}, point);
        QCOMPARE(window.selectedRace(), std::optional<qint64>(2));
        QCOMPARE(window.historyView()->history().focusRace, 2);
        // Clicking an event shows it below the view.
        const auto event = window.historyView()->eventPosition(EventKey{0, 0});
        QVERIFY(event);
        canvas->centerOn(*event);
        QTest::mouseClick(canvas->viewport(), Qt::LeftButton, {}, canvas->mapFromScene(*event));
        QVERIFY2(history->eventInfoText().contains(QStringLiteral("T0 event #0 (fork)")),
                 qPrintable(history->eventInfoText()));
    }

    void filtersHideAndRevealRaces() {
        MainWindow window;
        window.show();
        QVERIFY(window.openDatabase(db_));
        RaceFilter filter;
        filter.statuses = {RaceStatus::Unvalidated};
        window.setFilter(filter);
        QCOMPARE(window.filter().statuses, filter.statuses);
        QCOMPARE(window.partitionModel()->rowCount(), 1);
        QCOMPARE(window.partitionModel()
                     ->index(0, 0)
                     .data(PartitionTreeModel::PartitionIdRole)
                     .toLongLong(),
                 1);
        // Selecting a race the filter hides clears the filter.
        QVERIFY(window.selectRace(0));
        QVERIFY(window.filter().isEmpty());
        QCOMPARE(window.partitionModel()->rowCount(), 2);
        filter = RaceFilter();
        filter.search = QStringLiteral("a[20]");
        filter.thread = QStringLiteral("T1");
        window.setFilter(filter);
        QCOMPARE(window.filter().thread, QStringLiteral("T1"));
        QCOMPARE(window.partitionModel()->rowCount(), 1);
    }

    void messageBoxForMissingCorruptAndForeignFiles_data() {
        QTest::addColumn<QByteArray>("content"); // empty: no file at all
        QTest::addColumn<QString>("message");
        QTest::newRow("missing") << QByteArray() << QStringLiteral("does not exist");
        QTest::newRow("corrupt") << QByteArray(8192, '\x5a')
                                 << QStringLiteral("not a valid SQLite database");
        QByteArray header("SQLite format 3");
        header.append('\0');
        QTest::newRow("foreign") << QByteArray("foreign")
                                 << QStringLiteral("not a firstrace results database");
        QTest::newRow("damaged header")
            << header + QByteArray(100, '\x01') << QStringLiteral("not a valid SQLite database");
    }

    void messageBoxForMissingCorruptAndForeignFiles() {
        QFETCH(QByteArray, content);
        QFETCH(QString, message);
        const QString path =
            dir_.filePath(QStringLiteral("bad-%1.db").arg(QTest::currentDataTag()));
        if (content == "foreign") {
            SqliteConnection db(path, SqliteConnection::Mode::ReadWriteCreate);
            db.execute(
                QStringLiteral("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('hi')"));
        } else if (!content.isEmpty()) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(content);
        }
        MainWindow window;
        window.show();
        QVERIFY(window.openDatabase(db_)); // a good database stays open after a failure
        QSignalSpy failed(&window, &MainWindow::openFailed);
        QVERIFY(!window.openDatabase(path)); // returns at once: the box is not modal-blocking
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.front().at(0).toString(), path);
        QMessageBox* box = openMessageBox(window);
        QVERIFY(box);
        QCOMPARE(box->icon(), QMessageBox::Warning);
        QCOMPARE(box->text(), failed.front().at(1).toString());
        QVERIFY2(box->text().contains(message), qPrintable(box->text()));
        QVERIFY(box->text().contains(path));
        box->accept();
        QVERIFY(window.database());
        QCOMPARE(window.selectedRace(), std::optional<qint64>(0));
        QVERIFY(!window.recentFiles().contains(path));
    }

    void copiesPartitionReports() {
        MainWindow window;
        window.show();
        QVERIFY(window.openDatabase(db_));
        QVERIFY(window.selectRace(1));
        const QString text = window.partitionReport(ReportFormat::Text);
        QVERIFY2(text.startsWith(QStringLiteral("Partition 1\n")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("race 1  unvalidated, tangle 0")));
        QVERIFY(text.contains(QStringLiteral("race 2  unvalidated, tangle 0")));
        QVERIFY(text.contains(QStringLiteral("T1 #6: workq.c:40 (write)")));
        const QString markdown = window.partitionReport(ReportFormat::Markdown);
        QVERIFY(markdown.startsWith(QStringLiteral("## Partition 1")));
        QVERIFY(markdown.contains(
            QStringLiteral("| 2 | unvalidated, tangle 0 | T1 #6 | workq.c:40 (write) | T2 #6 |")));
        // Under a filter the report lists the matching races only.
        RaceFilter filter;
        filter.search = QStringLiteral("a[39]");
        window.setFilter(filter);
        QVERIFY(window.selectRace(2));
        const QString filtered = window.partitionReport(ReportFormat::Text);
        QVERIFY(!filtered.contains(QStringLiteral("race 1 ")));
        QVERIFY(filtered.contains(QStringLiteral("race 2 ")));
    }

    void remembersRecentFilesAndLayout() {
        const QString second = dir_.filePath(QStringLiteral("second.db"));
        testing::createResultsDatabase(second);
        testing::addFigureRun(second);
        QByteArray splitter;
        {
            MainWindow window;
            window.resize(1300, 850);
            window.show();
            QVERIFY(window.openDatabase(db_));
            QVERIFY(window.openDatabase(second));
            QVERIFY(window.openDatabase(db_));
            QCOMPARE(window.recentFiles(), (QStringList{QFileInfo(db_).absoluteFilePath(),
                                                        QFileInfo(second).absoluteFilePath()}));
            auto* main = window.findChild<QSplitter*>(QStringLiteral("mainSplitter"));
            QVERIFY(main);
            main->setSizes({300, 1000});
            splitter = main->saveState();
            window.historyView()->setSharedDataVisible(true);
            window.close(); // saves the layout
        }
        MainWindow restored;
        restored.restoreLayout();
        auto* main = restored.findChild<QSplitter*>(QStringLiteral("mainSplitter"));
        QCOMPARE(main->saveState(), splitter);
        QVERIFY(restored.historyView()->sharedDataVisible());
        QVERIFY(!restored.historyView()->eventControlVisible());
        QCOMPARE(restored.recentFiles().size(), 2);
        for (int i = 0; i < MainWindow::kMaxRecentFiles + 3; ++i) {
            const QString path = dir_.filePath(QStringLiteral("recent-%1.db").arg(i));
            QFile::copy(db_, path);
            QVERIFY(restored.openDatabase(path));
        }
        QCOMPARE(restored.recentFiles().size(), MainWindow::kMaxRecentFiles);
        QVERIFY(restored.recentFiles().front().endsWith(
            QStringLiteral("recent-%1.db").arg(MainWindow::kMaxRecentFiles + 2)));
    }

    void switchesRuns() {
        const QString path = dir_.filePath(QStringLiteral("two-runs.db"));
        testing::createResultsDatabase(path);
        const qint64 figure = testing::addFigureRun(path);
        testing::SyntheticRun spec;
        spec.races = 300;
        spec.eventsPerProcess = 90;
        const qint64 synthetic = testing::addSyntheticRun(path, spec);
        MainWindow window;
        window.show();
        QVERIFY(window.openDatabase(path));
        QCOMPARE(window.runModel()->rowCount(), 2);
        QCOMPARE(window.partitionModel()->run(), synthetic); // the newest run first
        QCOMPARE(window.selectedRace(), std::optional<qint64>(0));
        QVERIFY(window.raceDetails()->sideText(0).contains(QStringLiteral("thread 0")));
        QVERIFY(window.selectRun(figure));
        QCOMPARE(window.partitionModel()->run(), figure);
        QCOMPARE(window.partitionModel()->rowCount(), 2);
        QVERIFY(window.raceDetails()->sideText(0).contains(QStringLiteral("T1")));
        QVERIFY(!window.selectRun(99));
    }

    void notPersistentWritesNoSettings() {
        MainWindow window;
        window.setPersistent(false);
        window.show();
        QVERIFY(window.openDatabase(db_));
        window.close();
        QVERIFY(window.recentFiles().isEmpty());
        QVERIFY(!QSettings().contains(QStringLiteral("layout/geometry")));
    }

    void closingTheDatabaseClearsTheViews() {
        MainWindow window;
        window.show();
        QVERIFY(window.openDatabase(db_));
        window.closeDatabase();
        QVERIFY(!window.database());
        QCOMPARE(window.partitionModel()->rowCount(), 0);
        QVERIFY(!window.selectedRace());
        QVERIFY(window.historyView()->history().events.isEmpty());
        QVERIFY(window.partitionReport(ReportFormat::Text).isEmpty());
    }
};

QTEST_MAIN(MainWindowTest)
#include "tst_main_window.moc"
