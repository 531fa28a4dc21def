// gui_open_benchmark DB N: how long each view of the browser takes on a results database of N
// races (issue 15: every action under a second for 10^6 races). Writes DB through the
// analyzer's writer (the synthetic run of bench/store) when it does not exist yet. Prints one
// line per action; fails only when an action does not do what it should, never on a time.
#include <QApplication>
#include <QClipboard>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTextStream>
#include <QToolButton>
#include <QTreeView>

#include "history_view.hpp"
#include "main_window.hpp"
#include "race_details_view.hpp"
#include "race_site_tree_model.hpp"
#include "results_database.hpp"
#include "results_fixture.hpp"
#include "source_view.hpp"

using namespace firstrace::gui;

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QTextStream out(stdout);
    if (argc != 3) {
        QTextStream(stderr) << "usage: gui_open_benchmark DB RACES\n";
        return 2;
    }
    const QString path = QString::fromLocal8Bit(argv[1]);
    const qint64 races = QString::fromLocal8Bit(argv[2]).toLongLong();
    if (!QFileInfo::exists(path)) {
        QElapsedTimer build;
        build.start();
        testing::writeSyntheticRun(path, races);
        out << "wrote " << path << " (" << races << " races, " << QFileInfo(path).size() / (1 << 20)
            << " MiB) in " << build.elapsed() << " ms" << Qt::endl;
    }

    QApplication::setOrganizationName(QStringLiteral("firstrace-benchmark"));
    MainWindow window;
    window.setMessageBoxesEnabled(false);
    window.setPersistent(false);
    window.resize(1600, 1000);
    window.show();
    QApplication::processEvents();

    int failures = 0;
    QElapsedTimer timer;
    // Runs `action`, lets the views repaint, prints the time.
    auto measure = [&](const QString& name, auto action) {
        timer.restart();
        const bool ok = action();
        QApplication::processEvents();
        window.repaint();
        out << qSetFieldWidth(44) << Qt::left << name << qSetFieldWidth(0) << timer.elapsed()
            << " ms" << (ok ? "" : "  FAILED") << Qt::endl;
        if (!ok) ++failures;
    };
    auto raceShown = [&] {
        const auto race = window.selectedRace();
        return race &&
               window.raceDetails()->summaryText().contains(QStringLiteral("Race %1").arg(*race)) &&
               !window.historyView()->history().events.isEmpty();
    };

    measure(QStringLiteral("open, first race shown"),
            [&] { return window.openDatabase(path) && raceShown(); });
    QTreeView* tree = window.siteTree();
    measure(QStringLiteral("next race (Down key)"), [&] {
        const auto before = window.selectedRace();
        tree->setFocus();
        QKeyEvent down(QEvent::KeyPress, Qt::Key_Down, Qt::NoModifier);
        QApplication::sendEvent(tree, &down);
        return window.selectedRace() != before || !window.selectedRace();
    });
    measure(QStringLiteral("scroll the site tree to the end of a page"), [&] {
        tree->scrollToBottom();
        QApplication::processEvents();
        return window.siteModel()->loadedSites() > 0;
    });
    measure(QStringLiteral("history: index layout"), [&] {
        window.historyView()->setTimeAxis(false);
        return !window.historyView()->timeAxisActive();
    });
    measure(QStringLiteral("history: time axis, other races"), [&] {
        window.historyView()->setTimeAxis(true);
        window.historyView()->setOtherRacesVisible(true);
        return window.historyView()->timeAxisActive();
    });
    measure(QStringLiteral("history: zoom out fully"), [&] {
        for (int i = 0; i < 12; ++i)
            window.historyView()->zoomOut();
        return true;
    });
    measure(QStringLiteral("copy race site as Markdown"), [&] {
        const QString report = window.siteReport(ReportFormat::Markdown);
        return report.startsWith(QStringLiteral("## Race site"));
    });
    measure(QStringLiteral("jump to the last race"),
            [&] { return window.selectRace(races - 1) && window.selectedRace() == races - 1; });
    measure(QStringLiteral("toggle off unvalidated"), [&] {
        window.statusToggle(RaceStatus::Unvalidated)->click();
        return window.filter().statuses.size() == 2;
    });
    measure(QStringLiteral("toggle unvalidated back on"), [&] {
        window.statusToggle(RaceStatus::Unvalidated)->click();
        return window.filter().statuses.isEmpty();
    });
    RaceFilter filter;
    filter.statuses = {RaceStatus::FeasibleEc};
    filter.thread = QStringLiteral("thread 3");
    measure(QStringLiteral("filter feasible-ec + thread 3"), [&] {
        window.setFilter(filter);
        return window.siteModel()->rowCount() > 0;
    });
    // The file of a listed site's headline (the file filter selects by headline location).
    window.setFilter(RaceFilter());
    QString file;
    for (int row = 0; row < window.siteModel()->rowCount() && file.isEmpty(); ++row)
        file = window.siteModel()->siteAt(window.siteModel()->index(row, 0))->first.file;
    filter = RaceFilter();
    filter.file = file;
    measure(QStringLiteral("filter file ") + QFileInfo(file).fileName(), [&] {
        window.setFilter(filter);
        return file.isEmpty() || window.siteModel()->rowCount() > 0;
    });
    filter = RaceFilter();
    filter.search = QStringLiteral("function_99");
    measure(QStringLiteral("search function_99"), [&] {
        window.setFilter(filter);
        return window.siteModel()->rowCount() > 0;
    });
    measure(QStringLiteral("clear the filter"), [&] {
        window.setFilter(RaceFilter());
        return window.siteModel()->rowCount() > 0;
    });
    return failures == 0 ? 0 : 1;
}
