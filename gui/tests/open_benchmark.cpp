// gui_open_benchmark DB N: how long the browser takes to open a results database of N races and
// show its first partitions with the first race selected (DESIGN: under a second for 10^6).
// Writes DB with the synthetic fixture when it does not exist yet.
#include <QApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTextStream>
#include <QTreeView>

#include "history_view.hpp"
#include "main_window.hpp"
#include "partition_tree_model.hpp"
#include "race_details_view.hpp"
#include "results_fixture.hpp"

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
        testing::createResultsDatabase(path);
        testing::SyntheticRun spec;
        spec.races = races;
        spec.racesPerPartition = 50;
        spec.firstPartitions = 20;
        spec.processes = 16;
        spec.eventsPerProcess = 30000;
        testing::addSyntheticRun(path, spec);
        out << "wrote " << path << " (" << races << " races, " << QFileInfo(path).size() / (1 << 20)
            << " MiB) in " << build.elapsed() << " ms\n";
    }

    QApplication::setOrganizationName(QStringLiteral("firstrace-benchmark"));
    MainWindow window;
    window.setMessageBoxesEnabled(false);
    window.setPersistent(false);
    window.resize(1600, 1000);
    window.show();
    QApplication::processEvents();

    QElapsedTimer timer;
    timer.start();
    if (!window.openDatabase(path)) return 1;
    const qint64 opened = timer.elapsed();
    QApplication::processEvents(); // paint the tree, details and history
    const qint64 shown = timer.elapsed();
    const auto selected = window.selectedRace();
    qint64 loadedRaces = 0;
    PartitionTreeModel* model = window.partitionModel();
    for (int row = 0; row < model->rowCount(); ++row)
        loadedRaces += model->rowCount(model->index(row, 0));
    out << "open " << opened << " ms, first partitions shown with race "
        << (selected ? QString::number(*selected) : QStringLiteral("none")) << " selected in "
        << shown << " ms (" << window.partitionModel()->loadedPartitions() << " partitions, "
        << loadedRaces << " races loaded)\n";

    // Jumping to the last race (loads every partition page on the way).
    timer.restart();
    const bool jumped = window.selectRace(races - 1);
    QApplication::processEvents();
    out << "select race " << races - 1 << ": " << timer.elapsed() << " ms\n";

    // A filter and a search over all races.
    RaceFilter filter;
    filter.statuses = {RaceStatus::FeasibleEc};
    filter.thread = QStringLiteral("thread 3");
    timer.restart();
    window.setFilter(filter);
    QApplication::processEvents();
    out << "filter feasible-ec + thread 3: " << timer.elapsed() << " ms\n";
    filter = RaceFilter();
    filter.search = QStringLiteral("buffer[4095]");
    timer.restart();
    window.setFilter(filter);
    QApplication::processEvents();
    out << "search buffer[4095]: " << timer.elapsed() << " ms\n";
    return selected && jumped && shown < 1000 ? 0 : 1;
}
