// The browser's view of a results database: the store's browser queries
// (firstrace/results_browser.hpp, where all SQL lives) with their records in Qt's types. Lists
// page by keyset, so that a run of 10^6 races is read a screenful at a time.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

#include "firstrace/errors.hpp"
#include "firstrace/results_browser.hpp"
#include "race_filter.hpp"
#include "results_records.hpp"

namespace firstrace::gui {

// A results database that turned out damaged while browsing (the store's error, naming the
// file).
using DatabaseError = firstrace::InputError;

// Where a scan of race sites stands (the store keeps it between pages).
using RaceSiteCursor = firstrace::browser::RaceSiteCursor;

class ResultsDatabase {
  public:
    using OpenError = firstrace::browser::ResultsBrowser::OpenError;
    struct OpenResult {
        std::unique_ptr<ResultsDatabase> database;
        OpenError error = OpenError::None;
        QString message; // one or two sentences for a message box, naming the file
    };
    // Never throws, never creates or modifies the file.
    static OpenResult open(const QString& path);

    QString path() const;

    // All queries throw DatabaseError when the file turns out damaged while browsing.
    QList<StoredRun> runs() const;
    QStringList threadNames(qint64 run) const;
    QStringList raceFiles(qint64 run) const; // files of access sites (the file filter's choices)
    // Races of the run per status, under `filter` but ignoring its statuses (what each status
    // toggle would add).
    StatusCounts statusCounts(qint64 run, const RaceFilter& filter) const;

    // The next race sites with a race that matches `filter`, continuing `cursor`: at least
    // `limit` unless the scan ends.
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
    // The events before and around race `id` (ResultsBrowser::history) with the labels the
    // history view draws; with `orderedAfter`, the events of that race too and the chain
    // ordering them (the stored one, else the shortest one the events shown hold).
    HistoryData history(qint64 run, qint64 id, int before = 6, int after = 3,
                        std::optional<qint64> orderedAfter = std::nullopt) const;

  private:
    explicit ResultsDatabase(std::unique_ptr<firstrace::browser::ResultsBrowser> browser);
    std::unique_ptr<firstrace::browser::ResultsBrowser> browser_;
};

} // namespace firstrace::gui
