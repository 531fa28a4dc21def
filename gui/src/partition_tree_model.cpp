#include "partition_tree_model.hpp"

#include <QColor>
#include <QFont>
#include <QFontDatabase>

#include "results_database.hpp"
#include "status_icons.hpp"

namespace firstrace::gui {

namespace {

// Internal ids: 0 for a partition row, partition row + 1 for its race rows.
constexpr quintptr kPartitionLevel = 0;

QString statusCounts(const PartitionSummary& p) {
    QStringList parts;
    if (p.feasible) parts << QStringLiteral("%1 feasible").arg(p.feasible);
    if (p.feasibleEc) parts << QStringLiteral("%1 feasible-ec").arg(p.feasibleEc);
    if (p.unvalidated) parts << QStringLiteral("%1 unvalidated").arg(p.unvalidated);
    if (p.actual) parts << QStringLiteral("%1 actual").arg(p.actual);
    return parts.join(QStringLiteral(", "));
}

RaceStatus strongestStatus(const PartitionSummary& p) {
    if (p.feasible) return RaceStatus::Feasible;
    if (p.feasibleEc) return RaceStatus::FeasibleEc;
    return RaceStatus::Unvalidated;
}

} // namespace

PartitionTreeModel::PartitionTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

template <typename F> bool PartitionTreeModel::guarded(F&& f) {
    try {
        f();
        return true;
    } catch (const DatabaseError& e) {
        emit errorOccurred(e.message());
        return false;
    }
}

// Nothing is fetched while views and testers react to a reset or an insertion (between begin
// and end): they would insert rows in the middle of that notification.
void PartitionTreeModel::setRun(const ResultsDatabase* database, qint64 run) {
    notifying_ = true;
    beginResetModel();
    database_ = database;
    run_ = run;
    partitions_.clear();
    partitionsComplete_ = database_ == nullptr;
    // The first page is part of the reset.
    if (database_) loadPartitionPage();
    endResetModel();
    notifying_ = false;
}

void PartitionTreeModel::setFilter(const RaceFilter& filter) {
    if (filter == filter_) return;
    filter_ = filter;
    setRun(database_, run_);
}

QModelIndex PartitionTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (column < 0 || column >= ColumnCount || row < 0) return {};
    if (!parent.isValid()) {
        if (row >= partitions_.size()) return {};
        return createIndex(row, column, kPartitionLevel);
    }
    if (parent.internalId() != kPartitionLevel) return {};
    const int p = parent.row();
    if (p >= partitions_.size() || row >= partitions_[p].races.size()) return {};
    return createIndex(row, column, quintptr(p) + 1);
}

QModelIndex PartitionTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == kPartitionLevel) return {};
    return createIndex(int(child.internalId() - 1), 0, kPartitionLevel);
}

int PartitionTreeModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) return int(partitions_.size());
    if (parent.internalId() != kPartitionLevel || parent.column() != 0) return 0;
    return int(partitions_.value(parent.row()).races.size());
}

int PartitionTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

bool PartitionTreeModel::hasChildren(const QModelIndex& parent) const {
    if (!parent.isValid()) return !partitions_.isEmpty();
    if (parent.internalId() != kPartitionLevel || parent.column() != 0) return false;
    const PartitionNode& node = partitions_[parent.row()];
    return !node.races.isEmpty() || !node.racesComplete;
}

bool PartitionTreeModel::canFetchMore(const QModelIndex& parent) const {
    if (!database_ || notifying_) return false;
    if (!parent.isValid()) return !partitionsComplete_;
    if (parent.internalId() != kPartitionLevel) return false;
    return parent.row() < partitions_.size() && !partitions_[parent.row()].racesComplete;
}

void PartitionTreeModel::fetchMore(const QModelIndex& parent) {
    if (!canFetchMore(parent)) return;
    if (!parent.isValid())
        fetchPartitions();
    else
        fetchRaces(parent.row());
}

QList<PartitionSummary> PartitionTreeModel::readPartitionPage() {
    const qint64 after = partitions_.isEmpty() ? -1 : partitions_.back().summary.id;
    QList<PartitionSummary> page;
    if (!guarded([&] { page = database_->partitions(run_, filter_, after, kPageSize); })) {
        partitionsComplete_ = true;
        return {};
    }
    if (page.size() < kPageSize) partitionsComplete_ = true;
    return page;
}

void PartitionTreeModel::appendPartitions(const QList<PartitionSummary>& page) {
    for (const PartitionSummary& summary : page) {
        PartitionNode node;
        node.summary = summary;
        partitions_.append(node);
    }
}

void PartitionTreeModel::loadPartitionPage() {
    appendPartitions(readPartitionPage());
}

void PartitionTreeModel::fetchPartitions() {
    const QList<PartitionSummary> page = readPartitionPage();
    if (page.isEmpty()) return;
    const int first = int(partitions_.size());
    notifying_ = true;
    beginInsertRows(QModelIndex(), first, first + int(page.size()) - 1);
    appendPartitions(page);
    endInsertRows();
    notifying_ = false;
}

void PartitionTreeModel::fetchRaces(int row) {
    PartitionNode& node = partitions_[row];
    const qint64 after = node.races.isEmpty() ? -1 : node.races.back().id;
    QList<RaceSummary> page;
    if (!guarded(
            [&] { page = database_->races(run_, node.summary.id, filter_, after, kPageSize); })) {
        node.racesComplete = true;
        return;
    }
    if (page.size() < kPageSize) node.racesComplete = true;
    if (page.isEmpty()) return;
    const QModelIndex parent = createIndex(row, 0, kPartitionLevel);
    const int first = int(node.races.size());
    notifying_ = true;
    beginInsertRows(parent, first, first + int(page.size()) - 1);
    node.races.append(page);
    endInsertRows();
    notifying_ = false;
}

void PartitionTreeModel::countFrom(int row) {
    // The rows a view shows are asked for together: count this one and the next ones that are
    // not counted yet in one query.
    QList<PartitionSummary> batch;
    for (int i = row; i < partitions_.size() && batch.size() < kCountBatch; ++i) {
        if (partitions_[i].summary.counted) break;
        batch.append(partitions_[i].summary);
    }
    if (!guarded([&] { database_->countRaces(run_, filter_, batch); })) {
        for (PartitionSummary& p : batch)
            p.counted = true; // do not ask again
    }
    for (int i = 0; i < batch.size(); ++i)
        partitions_[row + i].summary = batch[i];
}

bool PartitionTreeModel::isRace(const QModelIndex& index) const {
    return index.isValid() && index.internalId() != kPartitionLevel;
}

const RaceSummary* PartitionTreeModel::raceAt(const QModelIndex& index) const {
    if (!isRace(index)) return nullptr;
    const int p = int(index.internalId() - 1);
    if (p >= partitions_.size() || index.row() >= partitions_[p].races.size()) return nullptr;
    return &partitions_[p].races[index.row()];
}

const PartitionSummary* PartitionTreeModel::partitionAt(const QModelIndex& index) {
    if (!index.isValid()) return nullptr;
    const int p = isRace(index) ? int(index.internalId() - 1) : index.row();
    if (p >= partitions_.size()) return nullptr;
    if (!partitions_[p].summary.counted) countFrom(p);
    return &partitions_[p].summary;
}

QModelIndex PartitionTreeModel::indexOfRace(qint64 id) {
    if (!database_) return {};
    std::optional<RaceSummary> race;
    qint64 partitionRow = 0;
    qint64 raceRow = 0;
    bool matches = false;
    if (!guarded([&] {
            race = database_->race(run_, id);
            if (!race) return;
            matches = database_->raceMatches(run_, id, filter_);
            if (!matches) return;
            partitionRow = database_->partitionRow(run_, race->partition, filter_);
            raceRow = database_->raceRow(run_, race->partition, id, filter_);
        }) ||
        !race || !matches)
        return {};
    while (partitions_.size() <= partitionRow && canFetchMore(QModelIndex()))
        fetchPartitions();
    if (partitionRow >= partitions_.size() ||
        partitions_[partitionRow].summary.id != race->partition)
        return {};
    const QModelIndex parent = index(int(partitionRow), 0);
    while (partitions_[partitionRow].races.size() <= raceRow && canFetchMore(parent))
        fetchRaces(int(partitionRow));
    const QModelIndex result = index(int(raceRow), 0, parent);
    const RaceSummary* found = raceAt(result);
    return found && found->id == id ? result : QModelIndex();
}

QVariant PartitionTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case NameColumn:
        return tr("Partition / race");
    case StatusColumn:
        return tr("Status");
    case ThreadsColumn:
        return tr("Threads (event)");
    case SitesColumn:
        return tr("Access sites");
    case VariablesColumn:
        return tr("Variables");
    default:
        return {};
    }
}

QVariant PartitionTreeModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    if (!isRace(index)) {
        if (index.row() >= partitions_.size()) return {};
        const bool needsCounts = (index.column() == StatusColumn &&
                                  (role == Qt::DisplayRole || role == Qt::DecorationRole));
        if (needsCounts && !partitions_[index.row()].summary.counted)
            const_cast<PartitionTreeModel*>(this)->countFrom(index.row());
        const PartitionSummary& p = partitions_[index.row()].summary;
        switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
            case NameColumn:
                return p.first ? tr("Partition %1 \u2014 first").arg(p.id)
                               : tr("Partition %1").arg(p.id);
            case StatusColumn:
                return (p.races == 1 ? tr("1 race") : tr("%1 races").arg(p.races)) +
                       (statusCounts(p).isEmpty() ? QString()
                                                  : QStringLiteral(": ") + statusCounts(p));
            default:
                return {};
            }
        case Qt::DecorationRole:
            if (index.column() == NameColumn) return partitionIcon(p.first);
            if (index.column() == StatusColumn) return statusIcon(strongestStatus(p), p.actual > 0);
            return {};
        case Qt::FontRole:
            if (p.first) {
                QFont font;
                font.setBold(true);
                return font;
            }
            return {};
        case Qt::BackgroundRole:
            return p.first ? QColor(0xff, 0xf8, 0xe1) : QVariant();
        case Qt::ToolTipRole:
            return p.first ? tr("A first partition: no race of another partition is ordered before "
                                "its races, so they are not artifacts of other races.")
                           : tr("Ordered after a first partition: its races may be artifacts of "
                                "earlier races.");
        case PartitionIdRole:
            return p.id;
        case FirstPartitionRole:
            return p.first;
        default:
            return {};
        }
    }
    const RaceSummary* race = raceAt(index);
    if (!race) return {};
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return tr("Race %1").arg(race->id);
        case StatusColumn: {
            QString text = statusName(race->status);
            if (race->actual && *race->actual) text += tr(", actual");
            if (race->tangle) text += tr(", tangle %1").arg(*race->tangle);
            return text;
        }
        case ThreadsColumn:
            return QStringLiteral("%1 #%2 \u2194 %3 #%4")
                .arg(race->threadA)
                .arg(race->indexA)
                .arg(race->threadB)
                .arg(race->indexB);
        case SitesColumn: {
            const QString a = withoutDirectories(race->locationA);
            const QString b = withoutDirectories(race->locationB);
            return a == b ? a : a + QStringLiteral(" \u2194 ") + b;
        }
        case VariablesColumn:
            return race->variables;
        default:
            return {};
        }
    case Qt::DecorationRole:
        if (index.column() == StatusColumn)
            return statusIcon(race->status, race->actual.value_or(false));
        return {};
    case Qt::ToolTipRole:
        if (index.column() == StatusColumn) return statusDescription(race->status);
        if (index.column() == SitesColumn)
            return race->locationA + QStringLiteral(" \u2194 ") + race->locationB;
        return {};
    case RaceIdRole:
        return race->id;
    case PartitionIdRole:
        return race->partition;
    default:
        return {};
    }
}

} // namespace firstrace::gui
