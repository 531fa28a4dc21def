// Builds results databases for the GUI tests from db-schema/schema.sql: Netzer's running example
// (thesis Figure 2.1, as `samples/traces/figure-2-1.std` describes it) and synthetic runs of any
// size for paging tests and the open benchmark.
#pragma once

#include <QString>

namespace firstrace::gui {
class SqliteConnection;
}

namespace firstrace::gui::testing {

// Creates `path` (replacing it) with the current schema. Throws DatabaseError.
void createResultsDatabase(const QString& path);

// Appends the figure 2.1 run: T0 forks T1 and T2, which race on the shared queue (race 0,
// feasible, first partition 0) and on the array regions (races 1 and 2, unvalidated, tangle 0,
// partition 1 after partition 0). Returns the run id.
qint64 addFigureRun(const QString& path);

struct SyntheticRun {
    qint64 races = 1000;
    qint64 racesPerPartition = 10;
    qint64 firstPartitions = 3;
    int processes = 8;
    qint64 eventsPerProcess = 2000;
};
// Appends a run of `spec.races` races with every status, some actual and tangled, over
// `spec.processes` processes that synchronize through one lock. Returns the run id.
qint64 addSyntheticRun(const QString& path, const SyntheticRun& spec);

// The source text stored for workq.c in the figure run.
QString workqSource();

} // namespace firstrace::gui::testing
