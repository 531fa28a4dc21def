// The main window under the offscreen platform: opening a database selects a feasible race of
// the first partition under the first race site and fills the details, stacks, sources and
// history; message boxes (non-blocking) for missing, corrupt and foreign files; status toggles
// with counts; filters; jumping from a race edge of the history and from "ordered after";
// copying a race site; recent files and layout persistence, view settings per database.
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QTreeView>
#include <QTreeWidget>

#include "history_view.hpp"
#include "main_window.hpp"
#include "race_details_view.hpp"
#include "race_site_tree_model.hpp"
#include "results_fixture.hpp"
#include "run_list_model.hpp"
#include "source_view.hpp"

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
        testing::writeFigureRun(db_, dir_.filePath(QStringLiteral("src")));
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
        // The first race site (workq.c:20 <-> workq.c:23) expanded, its feasible race of the
        // first partition selected.
        QCOMPARE(window.selectedRace(), std::optional<qint64>(0));
        QCOMPARE(window.selectedSite(), std::optional<qint64>(0));
        QVERIFY(window.siteTree()->isExpanded(window.siteModel()->index(0, 0)));
        QCOMPARE(window.siteModel()->index(0, 0).data().toString(),
                 QStringLiteral("workq.c:20 \u2194 workq.c:23"));
        QVERIFY(window.siteModel()
                    ->index(0, RaceSiteTreeModel::StatusColumn)
                    .data()
                    .toString()
                    .contains(QStringLiteral("1 feasible")));
        QCOMPARE(window.siteModel()->index(0, RaceSiteTreeModel::VariableColumn).data().toString(),
                 QStringLiteral("q.head"));
        // Details: summary, both sides, the two sources with lines 20 and 23 highlighted.
        QVERIFY(window.raceDetails()->summaryText().contains(QStringLiteral("Race 0")));
        QVERIFY(window.raceDetails()->summaryText().contains(QStringLiteral("q.head")));
        QVERIFY(window.raceDetails()->summaryText().contains(QStringLiteral("first partition")));
        QVERIFY(window.raceDetails()->sideText(0).contains(QStringLiteral("T1")));
        QVERIFY(window.raceDetails()->sideText(1).contains(QStringLiteral("T2")));
        QVERIFY(window.raceDetails()->sideText(0).contains(QStringLiteral("workq.c:23")));
        QVERIFY(window.raceDetails()->sideText(0).contains(QStringLiteral("by T0"))); // creation
        // The status toggles are down and carry the run's counts; the status bar is clean.
        QVERIFY(window.statusToggle(RaceStatus::Feasible)->isChecked());
        QCOMPARE(window.statusToggle(RaceStatus::Feasible)->text(), QStringLiteral("Feasible 2"));
        QCOMPARE(window.statusToggle(RaceStatus::Unvalidated)->text(),
                 QStringLiteral("Unvalidated 1"));
        QVERIFY(window.statusBar()->currentMessage().startsWith(QStringLiteral("Opened")));
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
        QCOMPARE(window.selectedSite(), std::optional<qint64>(3)); // workq.c:40 <-> workq.c:40
        QVERIFY(window.raceDetails()->summaryText().contains(QStringLiteral("partition 2")));
        QCOMPARE(window.raceDetails()->sourceA()->highlightedLines(), QList<int>{40});
        QVERIFY(!window.selectRace(42));
        QCOMPARE(window.selectedRace(), std::optional<qint64>(2));
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("not in this run")));
        // The next successful selection clears that message.
        QVERIFY(window.selectRace(0));
        QVERIFY(window.statusBar()->currentMessage().isEmpty());
    }

    void keysMoveThroughTheTree() {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openDatabase(db_));
        QTreeView* tree = window.siteTree();
        tree->setFocus();
        // From race 0 under the first site: Down reaches the second site's row, Right opens
        // it, Down selects its race (race 0 again: it is an instance of both sites).
        QTest::keyClick(tree, Qt::Key_Down);
        QCOMPARE(window.selectedSite(), std::optional<qint64>(1));
        QTest::keyClick(tree, Qt::Key_Right);
        QTest::keyClick(tree, Qt::Key_Down);
        QCOMPARE(window.selectedRace(), std::optional<qint64>(0));
        QCOMPARE(window.selectedSite(), std::optional<qint64>(1));
        // Typing a race id into the search field filters to it.
        QLineEdit* search = nullptr;
        for (QLineEdit* edit : window.findChildren<QLineEdit*>())
            if (edit->placeholderText().startsWith(QStringLiteral("Search"))) search = edit;
        QVERIFY(search);
        QTest::keyClicks(search, QStringLiteral("#2"));
        QTRY_COMPARE(window.filter().search, QStringLiteral("#2"));
        QTRY_COMPARE(window.siteModel()->rowCount(), 1);
        QCOMPARE(window.selectedRace(), std::optional<qint64>(2));
    }

    void clickingARaceEdgeJumpsToTheRace() {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openDatabase(db_));
        HistoryView* history = window.historyView();
        history->setOtherRacesVisible(true);
        const auto mid = history->raceEdgeMidpoint(2);
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

    void orderedAfterIsALink() {
        MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(window.openDatabase(db_));
        QVERIFY(window.selectRace(1)); // partition 1, ordered after partition 0 (race 0)
        QVERIFY(window.raceDetails()->summaryText().contains(
            QStringLiteral("<a href='race:0'>race 0</a>")));
        QCOMPARE(window.historyView()->history().orderedAfterRace, std::optional<qint64>(0));
        QVERIFY(!window.historyView()->drawnOrderChain().isEmpty());
        emit window.raceDetails()->raceLinkActivated(0);
        QCOMPARE(window.selectedRace(), std::optional<qint64>(0));
    }

    void statusTogglesAndFilters() {
        MainWindow window;
        window.show();
        QVERIFY(window.openDatabase(db_));
        QCOMPARE(window.siteModel()->rowCount(), 4);
        // Switching feasible off leaves the unvalidated race's site.
        QTest::mouseClick(window.statusToggle(RaceStatus::Feasible), Qt::LeftButton);
        QVERIFY(!window.statusToggle(RaceStatus::Feasible)->isChecked());
        QCOMPARE(window.filter().statuses,
                 (QList<RaceStatus>{RaceStatus::FeasibleEc, RaceStatus::Unvalidated}));
        QCOMPARE(window.siteModel()->rowCount(), 1);
        QCOMPARE(window.selectedRace(), std::optional<qint64>(1));
        // Switching the last ones off too switches every status back on.
        QTest::mouseClick(window.statusToggle(RaceStatus::FeasibleEc), Qt::LeftButton);
        QTest::mouseClick(window.statusToggle(RaceStatus::Unvalidated), Qt::LeftButton);
        QVERIFY(window.filter().statuses.isEmpty());
        QCOMPARE(window.siteModel()->rowCount(), 4);
        RaceFilter filter;
        filter.statuses = {RaceStatus::Unvalidated};
        window.setFilter(filter);
        QCOMPARE(window.siteModel()->rowCount(), 1);
        // Selecting a race the filter hides clears the filter.
        QVERIFY(window.selectRace(0));
        QVERIFY(window.filter().isEmpty());
        QCOMPARE(window.siteModel()->rowCount(), 4);
        filter = RaceFilter();
        filter.search = QStringLiteral("a[20]");
        filter.thread = QStringLiteral("T1");
        window.setFilter(filter);
        QCOMPARE(window.filter().thread, QStringLiteral("T1"));
        QCOMPARE(window.siteModel()->rowCount(), 1);
        // The counts on the toggles follow the other filters.
        QCOMPARE(window.statusToggle(RaceStatus::Unvalidated)->text(),
                 QStringLiteral("Unvalidated 1"));
        QCOMPARE(window.statusToggle(RaceStatus::Feasible)->text(), QStringLiteral("Feasible 0"));
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
            testing::copyWithHeader(db_, path, std::nullopt, 0); // another program's database
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

    void copiesRaceSiteReports() {
        MainWindow window;
        window.show();
        QVERIFY(window.openDatabase(db_));
        QVERIFY(window.selectRace(1));
        const QString text = window.siteReport(ReportFormat::Text);
        QVERIFY2(text.startsWith(QStringLiteral("Race site workq.c:30 <-> workq.c:40\n")),
                 qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("race 1  unvalidated, partition 1")));
        QVERIFY(text.contains(QStringLiteral("T1 #6: workq.c:40 (write)")));
        const QString markdown = window.siteReport(ReportFormat::Markdown);
        QVERIFY(markdown.startsWith(QStringLiteral("## Race site workq.c:30 <-> workq.c:40")));
        QVERIFY2(markdown.contains(QStringLiteral("| 1 | unvalidated, partition 1 | T1 #6 | "
                                                  "workq.c:40 (write) | T2 #0 |")),
                 qPrintable(markdown));
        // The race site of the first race holds only race 0.
        QVERIFY(window.selectRace(0));
        const QString first = window.siteReport(ReportFormat::Text);
        QVERIFY(first.contains(QStringLiteral("race 0  feasible, actual, first partition 0")));
        QVERIFY(!first.contains(QStringLiteral("race 1 ")));
        QApplication::clipboard()->clear();
        QAction* copy = nullptr;
        for (QAction* action : window.findChildren<QAction*>())
            if (action->text() == QStringLiteral("Copy Race Site as &Markdown")) copy = action;
        QVERIFY(copy);
        copy->trigger();
        QCOMPARE(QApplication::clipboard()->text(), window.siteReport(ReportFormat::Markdown));
        QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("Markdown")));
    }

    void remembersRecentFilesAndLayout() {
        const QString second = dir_.filePath(QStringLiteral("second.db"));
        testing::writeFigureRun(second, dir_.filePath(QStringLiteral("src")));
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
        // View settings of the history are not carried over: each database starts afresh.
        QVERIFY(!restored.historyView()->sharedDataVisible());
        restored.historyView()->setSharedDataVisible(true);
        QVERIFY(restored.openDatabase(db_));
        QVERIFY(!restored.historyView()->sharedDataVisible());
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
        const qint64 figure = testing::writeFigureRun(path, dir_.filePath(QStringLiteral("src")));
        const qint64 synthetic = testing::writeSyntheticRun(path, 300);
        MainWindow window;
        window.show();
        QVERIFY(window.openDatabase(path));
        QCOMPARE(window.runModel()->rowCount(), 2);
        QCOMPARE(window.siteModel()->run(), synthetic); // the newest run first
        const auto selected = window.selectedRace();
        QVERIFY(selected);
        const QModelIndex race = window.siteTree()->currentIndex();
        QCOMPARE(race.data(RaceSiteTreeModel::GroupRole).toInt(), int(RaceGroup::FirstPartition));
        QVERIFY(window.raceDetails()->summaryText().contains(QStringLiteral("feasible")));
        QVERIFY(window.raceDetails()->sideText(0).contains(QStringLiteral("thread ")));
        QVERIFY(window.selectRun(figure));
        QCOMPARE(window.siteModel()->run(), figure);
        QCOMPARE(window.siteModel()->rowCount(), 4);
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
        QCOMPARE(window.siteModel()->rowCount(), 0);
        QVERIFY(!window.selectedRace());
        QVERIFY(window.historyView()->history().events.isEmpty());
        QVERIFY(window.siteReport(ReportFormat::Text).isEmpty());
    }
};

QTEST_MAIN(MainWindowTest)
#include "tst_main_window.moc"
