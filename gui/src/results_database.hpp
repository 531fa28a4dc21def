// Read-only access to a firstrace results database (db-schema/schema.sql, SCHEMA.md). All SQL
// of the browser lives here; the models and views get plain records. Queries page by keyset
// (id > last id, LIMIT n) so that a run with 10^6 races is read a screenful at a time.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

#include "race_filter.hpp"
#include "results_records.hpp"
#include "sqlite_connection.hpp"

namespace firstrace::gui {

class ResultsDatabase {
  public:
    // The schema this browser reads (PRAGMA application_id / user_version of schema.sql).
    static constexpr qint64 kApplicationId = 0x46525354; // "FRST"
    static constexpr int kSchemaVersion = 1;

    enum class OpenError { None, Missing, Unreadable, Corrupt, Foreign, TooNew };
    struct OpenResult {
        std::unique_ptr<ResultsDatabase> database;
        OpenError error = OpenError::None;
        QString message; // one or two sentences for a message box, naming the file
    };
    // Never throws, never creates or modifies the file.
    static OpenResult open(const QString& path);

    const QString& path() const { return connection_.path(); }

    // All queries throw DatabaseError when the file turns out damaged while browsing.
    QList<RunInfo> runs() const;
    QStringList threadNames(qint64 run) const;
    QStringList raceFiles(qint64 run) const; // files of access sites that take part in races

    // Partitions holding at least one race that matches `filter`, by id (first partitions have
    // the lowest ids, the rest follow the partition DAG). Not counted yet: `races` is the
    // partition's size without a filter, 0 with one.
    QList<PartitionSummary> partitions(qint64 run, const RaceFilter& filter, qint64 afterId,
                                       int limit) const;
    // Counts of matching races per status for `partitions` (one query over their id range:
    // pass neighbours, the tree counts the rows it shows).
    void countRaces(qint64 run, const RaceFilter& filter,
                    QList<PartitionSummary>& partitions) const;
    std::optional<PartitionSummary> partition(qint64 run, qint64 id,
                                              const RaceFilter& filter) const;
    // Matching races of one partition, by id.
    QList<RaceSummary> races(qint64 run, qint64 partition, const RaceFilter& filter, qint64 afterId,
                             int limit) const;
    std::optional<RaceSummary> race(qint64 run, qint64 id) const;
    bool raceMatches(qint64 run, qint64 id, const RaceFilter& filter) const;
    // How many matching partitions come before `partition`, and matching races of `partition`
    // before race `id` (their rows in the tree).
    qint64 partitionRow(qint64 run, qint64 partition, const RaceFilter& filter) const;
    qint64 raceRow(qint64 run, qint64 partition, qint64 id, const RaceFilter& filter) const;
    // The first matching race of the first partition (what the browser selects on open).
    std::optional<qint64> firstRace(qint64 run, const RaceFilter& filter) const;

    std::optional<RaceDetails> raceDetails(qint64 run, qint64 id) const;
    SourceText sourceText(qint64 run, const QString& file) const;
    // The events before and around race `id`: the two racing processes `before` events back and
    // `after` ahead, the processes they synchronize with, or the whole run when it is small.
    HistoryData history(qint64 run, qint64 id, int before = 6, int after = 3) const;

    const SqliteConnection& connection() const { return connection_; }

  private:
    explicit ResultsDatabase(const QString& path);
    EventDetails eventDetails(qint64 run, qint64 process, qint64 index) const;
    QList<SourceSite> raceSites(qint64 run, qint64 race, const QString& side) const;
    QString racesByPartition() const; // "races AS r", forced onto the partition index
    // The SQL condition of `filter` on races AS r (collects the search hits when needed).
    QString filterCondition(qint64 run, const RaceFilter& filter) const;
    void collectSearchHits(qint64 run, const QString& search) const;

    SqliteConnection connection_;
    bool partitionIndex_ = false;
    mutable qint64 searchRun_ = -1; // what temp.search_hits holds
    mutable QString searchText_;
};

} // namespace firstrace::gui
