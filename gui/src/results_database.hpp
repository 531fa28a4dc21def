// Read-only access to a firstrace results database (db-schema/schema.sql, SCHEMA.md). All SQL
// of the browser lives here; the models and views get plain records. Lists page by keyset
// (the key of the last row shown, LIMIT n) so that a run with 10^6 races is read a screenful
// at a time. Tables of newer schema versions (call stacks of access sites, race site
// instances, heap blocks) are used when present; older databases show what they have.
#pragma once

#include <QList>
#include <QSet>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

#include "race_filter.hpp"
#include "results_records.hpp"
#include "sqlite_connection.hpp"

namespace firstrace::gui {

// Where a scan of race sites stands: the sites are listed in the order of their earliest race
// (RaceGroup, then status, then partition and race id), so the scan walks the races in that
// order and lists each site at the first race that is an instance of it.
struct RaceSiteCursor {
    int pass = 0;          // index into the (group, status) passes
    qint64 partition = -1; // last race scanned in this pass
    qint64 race = -1;
    bool done = false;
    QSet<qint64> listed; // pairs already listed
};

// Key of a race in the browser's order (within a site and across sites).
struct RaceOrderKey {
    int group = 0;  // RaceGroup
    int status = 0; // RaceStatus
    qint64 partition = -1;
    qint64 race = -1;
};

class ResultsDatabase {
  public:
    // The schemas this browser reads (PRAGMA application_id / user_version of schema.sql).
    static constexpr qint64 kApplicationId = 0x46525354; // "FRST"
    static constexpr int kSchemaVersion = 3;

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
    QList<StoredRun> runs() const;
    QStringList threadNames(qint64 run) const;
    QStringList raceFiles(qint64 run) const; // files of access sites (the file filter's choices)
    // Races of the run per status, under `filter` but ignoring its statuses (what each status
    // toggle would add).
    StatusCounts statusCounts(qint64 run, const RaceFilter& filter) const;

    // The next race sites with a race that matches `filter`, continuing `cursor`: at least
    // `limit` unless the scan ends, and every new site of the last batch of races scanned.
    QList<RaceSiteRow> raceSites(qint64 run, const RaceFilter& filter, RaceSiteCursor& cursor,
                                 int limit) const;
    // Race site `pair` as a row led by race `leadRace` (not counted yet).
    RaceSiteRow raceSite(qint64 run, qint64 pair, qint64 leadRace, qint64 leadPartition,
                         RaceGroup group) const;
    // Counts of matching races per status of each site in `sites`.
    void countSiteRaces(qint64 run, const RaceFilter& filter, QList<RaceSiteRow>& sites) const;
    // Matching races of race site `pair`, in the browser's order after `after`.
    QList<RaceSummary> siteRaces(qint64 run, qint64 pair, const RaceFilter& filter,
                                 const RaceOrderKey& after, int limit) const;
    // The race sites race `id` is an instance of, in instance order.
    QList<qint64> pairsOfRace(qint64 run, qint64 id) const;
    std::optional<RaceOrderKey> orderKey(qint64 run, qint64 id) const;
    std::optional<RaceSummary> race(qint64 run, qint64 id) const;
    bool raceMatches(qint64 run, qint64 id, const RaceFilter& filter) const;

    std::optional<RaceDetails> raceDetails(qint64 run, qint64 id) const;
    // The races of race site `pair` with their details (for a report), at most `limit`.
    QList<RaceDetails> siteRaceDetails(qint64 run, qint64 pair, const RaceFilter& filter,
                                       int limit) const;
    SourceText sourceText(qint64 run, const QString& file) const;
    // The events before and around race `id`: the two racing processes `before` events back and
    // `after` ahead, the processes they synchronize with, or the whole run when it is small;
    // with `orderedAfter`, the events of that race too (and the chain ordering them, when the
    // events shown hold one).
    HistoryData history(qint64 run, qint64 id, int before = 6, int after = 3,
                        std::optional<qint64> orderedAfter = std::nullopt) const;

    const SqliteConnection& connection() const { return connection_; }
    int schemaVersion() const { return schemaVersion_; }

  private:
    explicit ResultsDatabase(const QString& path);
    void detectFeatures();
    EventDetails eventDetails(qint64 run, qint64 process, qint64 index) const;
    QList<SourceLocation> contextStack(qint64 run, std::optional<qint64> context) const;
    QList<SourceLocation> locationFrames(qint64 run, std::optional<qint64> location) const;
    QList<AccessSite> accessSites(qint64 run, qint64 race, const QString& side) const;
    OrderedAfter orderedAfter(qint64 run, const RaceSummary& race) const;
    std::optional<HeapBlockInfo> heapBlock(qint64 run, qint64 id) const;
    QString racesByPartition() const; // "races AS r", forced onto the partition index
    // The table mapping a race to its race sites: race_site_instances (v2) or, for older
    // databases, a temporary copy of race_site_pairs keyed by race (built once per run).
    QString racePairsTable(qint64 run) const;
    // The SQL condition of `filter` on races AS r (collects the search hits when needed).
    QString filterCondition(qint64 run, const RaceFilter& filter) const;
    void collectSearchHits(qint64 run, const QString& search) const;
    qint64 lastFirstPartition(qint64 run) const;
    // The pair of races without race site instances ('<unknown> <-> <unknown>'), if any.
    std::optional<qint64> unknownPair(qint64 run) const;

    SqliteConnection connection_;
    int schemaVersion_ = 1;
    bool partitionIndex_ = false;
    bool siteInstances_ = false;    // race_site_instances (v2)
    bool siteContexts_ = false;     // access_sites.context (v2)
    bool inlinedFrames_ = false;    // locations.inlined_into (v2)
    bool heapBlocks_ = false;       // heap_blocks (v2)
    mutable qint64 searchRun_ = -1; // what temp.search_hits holds
    mutable QString searchText_;
    mutable qint64 fileRun_ = -1; // what temp.file_hits holds
    mutable QString fileName_;
    mutable QString hitOrder_;         // which hits temp.hit_order orders
    mutable qint64 racePairsRun_ = -1; // what temp.race_pairs holds
    mutable qint64 firstPartitionsRun_ = -1;
    mutable qint64 lastFirstPartition_ = -1;
    mutable qint64 unknownPairRun_ = -1;
    mutable std::optional<qint64> unknownPair_;
};

} // namespace firstrace::gui
