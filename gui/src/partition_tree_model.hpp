// The partitions of one run as a tree (issue 5): first partitions on top and marked, then the
// others in partition-DAG order; each partition expands into its races. Both levels load
// lazily, a page at a time (canFetchMore / fetchMore over keyset-paged queries), so a run with
// 10^6 races opens as fast as one with ten.
#pragma once

#include <QAbstractItemModel>

#include "race_filter.hpp"
#include "results_records.hpp"

namespace firstrace::gui {

class ResultsDatabase;

class PartitionTreeModel : public QAbstractItemModel {
    Q_OBJECT
  public:
    enum Column {
        NameColumn,
        StatusColumn,
        ThreadsColumn,
        SitesColumn,
        VariablesColumn,
        ColumnCount
    };
    enum Role {
        RaceIdRole = Qt::UserRole + 1, // race rows: the race id; partition rows: invalid
        PartitionIdRole,               // both levels: the partition id
        FirstPartitionRole,            // partition rows: bool
    };
    static constexpr int kPageSize = 200;
    static constexpr int kCountBatch = 64; // partitions counted together (about a screenful)

    explicit PartitionTreeModel(QObject* parent = nullptr);

    // Shows run `run` of `database` (null: nothing). Loads the first page of partitions.
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
    const PartitionSummary* partitionAt(const QModelIndex& index);
    // The row of race `id`, loading pages up to it; invalid when the filter hides the race.
    QModelIndex indexOfRace(qint64 id);
    // Pages of partitions / races loaded so far (for tests and the status bar).
    int loadedPartitions() const { return int(partitions_.size()); }
    bool allPartitionsLoaded() const { return partitionsComplete_; }

  signals:
    void errorOccurred(const QString& message);

  private:
    struct PartitionNode {
        PartitionSummary summary;
        QList<RaceSummary> races;
        bool racesComplete = false;
    };
    void fetchPartitions();
    QList<PartitionSummary> readPartitionPage();
    void appendPartitions(const QList<PartitionSummary>& page);
    void loadPartitionPage();
    void countFrom(int row);
    void fetchRaces(int partitionRow);
    template <typename F> bool guarded(F&& f);

    const ResultsDatabase* database_ = nullptr;
    qint64 run_ = -1;
    RaceFilter filter_;
    QList<PartitionNode> partitions_;
    bool partitionsComplete_ = true;
    bool notifying_ = false; // inside endResetModel / endInsertRows
};

} // namespace firstrace::gui
