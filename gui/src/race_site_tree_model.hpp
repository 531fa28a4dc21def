// The race sites of one run as a tree (issue 15): sites with a race in a first partition on
// top, then sites with validated races in later partitions, then the rest; each site expands
// into its races. Both levels load lazily, a page at a time (canFetchMore / fetchMore over
// keyset-paged queries), so a run with 10^6 races opens as fast as one with ten.
#pragma once

#include <QAbstractItemModel>

#include "race_filter.hpp"
#include "results_database.hpp"
#include "results_records.hpp"

namespace firstrace::gui {

class RaceSiteTreeModel : public QAbstractItemModel {
    Q_OBJECT
  public:
    enum Column {
        SiteColumn,
        StatusColumn,
        VariableColumn,
        ThreadsColumn,
        PartitionColumn,
        ColumnCount
    };
    enum Role {
        RaceIdRole = Qt::UserRole + 1, // race rows: the race id; site rows: the lead race
        PairIdRole,                    // both levels: the site pair id
        GroupRole,                     // both levels: RaceGroup as int
    };
    static constexpr int kPageSize = 200;
    static constexpr int kCountBatch = 64; // sites counted together (about a screenful)
    static constexpr int kJumpPages = 1;   // pages listed to reach a race before pinning its site

    explicit RaceSiteTreeModel(QObject* parent = nullptr);

    // Shows run `run` of `database` (null: nothing). Loads the first page of sites.
    void setRun(const ResultsDatabase* database, qint64 run);
    void setFilter(const RaceFilter& filter);
    const RaceFilter& filter() const { return filter_; }
    qint64 run() const { return run_; }

    QModelIndex index(int row, int column,
                      const QModelIndex& parent = QModelIndex()) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    bool hasChildren(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;

    bool isRace(const QModelIndex& index) const;
    const RaceSummary* raceAt(const QModelIndex& index) const;
    // Either level; the counts are read when needed.
    const RaceSiteRow* siteAt(const QModelIndex& index);
    // The row of race `id` under the first listed site it is an instance of, listing up to
    // kJumpPages more pages of sites to reach it, else appending (pinning) its site after the
    // rows loaded; invalid when the filter hides the race.
    QModelIndex indexOfRace(qint64 id);
    int loadedSites() const { return int(sites_.size()); }
    bool allSitesLoaded() const { return cursor_.done; }

  signals:
    void errorOccurred(const QString& message);

  private:
    struct SiteNode {
        RaceSiteRow site;
        QList<RaceSummary> races;
        bool racesComplete = false;
    };
    QList<RaceSiteRow> readSitePage();
    void appendSites(const QList<RaceSiteRow>& page);
    void fetchSites();
    void countFrom(int row);
    void fetchRaces(int siteRow);
    template <typename F> bool guarded(F&& f);

    const ResultsDatabase* database_ = nullptr;
    qint64 run_ = -1;
    RaceFilter filter_;
    QList<SiteNode> sites_;
    RaceSiteCursor cursor_;
    bool notifying_ = false; // inside endResetModel / endInsertRows
};

} // namespace firstrace::gui
