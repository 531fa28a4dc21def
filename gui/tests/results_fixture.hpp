// Results databases for the GUI tests, written by the analyzer's results-database writer
// (firstrace::write_run, what `firstrace analyze -o` runs): Netzer's running example (thesis
// Figure 2.1, samples/traces/figure-2-1.std, analysed) and synthetic runs of any size
// (bench/store/synthetic_run.hpp) for paging tests and the 10^6-race benchmark.
#pragma once

#include <QString>

#include <optional>

namespace firstrace::gui::testing {

// Analyses samples/traces/figure-2-1.std and appends it to `path` (created when missing), with
// workq.c (workqSource()) written into `sourceDirectory` so that its text is stored. T0 forks
// T1 and T2; race 0 (feasible, actual, first partition 0) is the queue race on q.head between
// workq.c:20/23 of both children; races 1 (unvalidated) and 2 (feasible) on the array regions
// are in partitions 1 and 2, ordered after partition 0. Returns the run id. Throws on errors.
qint64 writeFigureRun(const QString& path, const QString& sourceDirectory);

// Appends make_synthetic_run(races): 16 threads x 4000 events, 1000 partitions (200 first),
// every status, with clock readings. Returns the run id.
qint64 writeSyntheticRun(const QString& path, qint64 races);

// Copies the database `from` to `to` with the 32-bit big-endian fields of the SQLite file
// header changed: the user version (offset 60, the schema version) and the application id
// (offset 68). A foreign or newer database without any SQL in the tests.
void copyWithHeader(const QString& from, const QString& to, std::optional<quint32> userVersion,
                    std::optional<quint32> applicationId);

// The source text stored for workq.c in the figure run.
QString workqSource();

} // namespace firstrace::gui::testing
