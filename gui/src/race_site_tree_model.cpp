#include "race_site_tree_model.hpp"

#include <QColor>
#include <QFont>

#include "call_stack.hpp"
#include "plain_tool_tip.hpp"
#include "status_icons.hpp"

namespace firstrace::gui {

namespace {

// Internal ids: 0 for a site row, site row + 1 for its race rows.
constexpr quintptr kSiteLevel = 0;

QString statusCounts(const StatusCounts& c) {
    QStringList parts;
    if (c.feasible) parts << QStringLiteral("%1 feasible").arg(c.feasible);
    if (c.feasibleEc) parts << QStringLiteral("%1 feasible-ec").arg(c.feasibleEc);
    if (c.unvalidated) parts << QStringLiteral("%1 unvalidated").arg(c.unvalidated);
    if (c.actual) parts << QStringLiteral("%1 actual").arg(c.actual);
    return parts.join(QStringLiteral(", "));
}

RaceStatus strongestStatus(const StatusCounts& c) {
    if (c.feasible) return RaceStatus::Feasible;
    if (c.feasibleEc) return RaceStatus::FeasibleEc;
    return RaceStatus::Unvalidated;
}

// "workq.c:20 ↔ workq.c:23", or one location when both ends are the same line.
QString siteText(const RaceSiteRow& site) {
    const QString a = site.first.shortLocation();
    const QString b = site.second.shortLocation();
    return a == b ? a + QStringLiteral(" \u2194 itself") : a + QStringLiteral(" \u2194 ") + b;
}

QString locationTip(const SourceLocation& location) {
    QString text = location.location();
    if (!location.function.isEmpty()) text += QStringLiteral(" in ") + location.function;
    return text;
}

QString groupDescription(RaceGroup group) {
    switch (group) {
    case RaceGroup::FirstPartition:
        return QStringLiteral("Has a race in a first partition: no race of another partition is "
                              "ordered before it, so it is not an artifact of other races.");
    case RaceGroup::Validated:
        return QStringLiteral("Validated races (feasible or feasible-ec) in later partitions: "
                              "real, but fix the races of first partitions first.");
    case RaceGroup::Other:
        return QStringLiteral("Only unvalidated races of later partitions: may be artifacts of "
                              "earlier races.");
    }
    return QString();
}

RaceOrderKey keyOf(const RaceSummary& race) {
    return race.orderKey;
}

} // namespace

RaceSiteTreeModel::RaceSiteTreeModel(QObject* parent) : QAbstractItemModel(parent) {}

template <typename F> bool RaceSiteTreeModel::guarded(F&& f) {
    try {
        f();
        return true;
    } catch (const DatabaseError& e) {
        emit errorOccurred(QString::fromStdString(e.what()));
        return false;
    }
}

// Nothing is fetched while views and testers react to a reset or an insertion (between begin
// and end): they would insert rows in the middle of that notification.
void RaceSiteTreeModel::setRun(const ResultsDatabase* database, qint64 run) {
    notifying_ = true;
    beginResetModel();
    database_ = database;
    run_ = run;
    sites_.clear();
    cursor_ = RaceSiteCursor();
    cursor_.done = database_ == nullptr;
    if (database_) appendSites(readSitePage()); // the first page is part of the reset
    endResetModel();
    notifying_ = false;
}

void RaceSiteTreeModel::setFilter(const RaceFilter& filter) {
    if (filter == filter_) return;
    filter_ = filter;
    setRun(database_, run_);
}

QModelIndex RaceSiteTreeModel::index(int row, int column, const QModelIndex& parent) const {
    if (column < 0 || column >= ColumnCount || row < 0) return {};
    if (!parent.isValid()) {
        if (row >= sites_.size()) return {};
        return createIndex(row, column, kSiteLevel);
    }
    if (parent.internalId() != kSiteLevel) return {};
    const int s = parent.row();
    if (s >= sites_.size() || row >= sites_[s].races.size()) return {};
    return createIndex(row, column, quintptr(s) + 1);
}

QModelIndex RaceSiteTreeModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == kSiteLevel) return {};
    return createIndex(int(child.internalId() - 1), 0, kSiteLevel);
}

int RaceSiteTreeModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) return int(sites_.size());
    if (parent.internalId() != kSiteLevel || parent.column() != 0) return 0;
    return int(sites_.value(parent.row()).races.size());
}

int RaceSiteTreeModel::columnCount(const QModelIndex&) const {
    return ColumnCount;
}

bool RaceSiteTreeModel::hasChildren(const QModelIndex& parent) const {
    if (!parent.isValid()) return !sites_.isEmpty();
    if (parent.internalId() != kSiteLevel || parent.column() != 0) return false;
    const SiteNode& node = sites_[parent.row()];
    return !node.races.isEmpty() || !node.racesComplete;
}

bool RaceSiteTreeModel::canFetchMore(const QModelIndex& parent) const {
    if (!database_ || notifying_) return false;
    if (!parent.isValid()) return !cursor_.done;
    if (parent.internalId() != kSiteLevel) return false;
    return parent.row() < sites_.size() && !sites_[parent.row()].racesComplete;
}

void RaceSiteTreeModel::fetchMore(const QModelIndex& parent) {
    if (!canFetchMore(parent)) return;
    if (!parent.isValid())
        fetchSites();
    else
        fetchRaces(parent.row());
}

QList<RaceSiteRow> RaceSiteTreeModel::readSitePage() {
    QList<RaceSiteRow> page;
    if (!guarded([&] { page = database_->raceSites(run_, filter_, cursor_, kPageSize); }))
        cursor_.done = true;
    return page;
}

void RaceSiteTreeModel::appendSites(const QList<RaceSiteRow>& page) {
    for (const RaceSiteRow& site : page) {
        SiteNode node;
        node.site = site;
        sites_.append(node);
    }
}

void RaceSiteTreeModel::fetchSites() {
    const QList<RaceSiteRow> page = readSitePage();
    if (page.isEmpty()) return;
    const int first = int(sites_.size());
    notifying_ = true;
    beginInsertRows(QModelIndex(), first, first + int(page.size()) - 1);
    appendSites(page);
    endInsertRows();
    notifying_ = false;
}

void RaceSiteTreeModel::fetchRaces(int row) {
    SiteNode& node = sites_[row];
    const RaceOrderKey after = node.races.isEmpty() ? RaceOrderKey() : keyOf(node.races.back());
    QList<RaceSummary> page;
    if (!guarded([&] {
            page = database_->siteRaces(run_, node.site.pairId, filter_, after, kPageSize);
        })) {
        node.racesComplete = true;
        return;
    }
    if (page.size() < kPageSize) node.racesComplete = true;
    if (page.isEmpty()) return;
    const QModelIndex parent = createIndex(row, 0, kSiteLevel);
    const int first = int(node.races.size());
    notifying_ = true;
    beginInsertRows(parent, first, first + int(page.size()) - 1);
    node.races.append(page);
    endInsertRows();
    notifying_ = false;
}

void RaceSiteTreeModel::countFrom(int row) {
    // The rows a view shows are asked for together: count this one and the next ones that are
    // not counted yet.
    QList<RaceSiteRow> batch;
    for (int i = row; i < sites_.size() && batch.size() < kCountBatch; ++i) {
        if (sites_[i].site.counted) break;
        batch.append(sites_[i].site);
    }
    if (!guarded([&] { database_->countSiteRaces(run_, filter_, batch); })) {
        for (RaceSiteRow& site : batch)
            site.counted = true; // do not ask again
    }
    for (int i = 0; i < batch.size(); ++i)
        sites_[row + i].site = batch[i];
}

bool RaceSiteTreeModel::isRace(const QModelIndex& index) const {
    return index.isValid() && index.internalId() != kSiteLevel;
}

const RaceSummary* RaceSiteTreeModel::raceAt(const QModelIndex& index) const {
    if (!isRace(index)) return nullptr;
    const int s = int(index.internalId() - 1);
    if (s >= sites_.size() || index.row() >= sites_[s].races.size()) return nullptr;
    return &sites_[s].races[index.row()];
}

const RaceSiteRow* RaceSiteTreeModel::siteAt(const QModelIndex& index) {
    if (!index.isValid()) return nullptr;
    const int s = isRace(index) ? int(index.internalId() - 1) : index.row();
    if (s >= sites_.size()) return nullptr;
    if (!sites_[s].site.counted) countFrom(s);
    return &sites_[s].site;
}

QModelIndex RaceSiteTreeModel::indexOfRace(qint64 id) {
    if (!database_) return {};
    QList<qint64> pairs;
    std::optional<RaceOrderKey> key;
    bool matches = false;
    if (!guarded([&] {
            matches = database_->raceMatches(run_, id, filter_);
            if (!matches) return;
            pairs = database_->pairsOfRace(run_, id);
            key = database_->orderKey(run_, id);
        }) ||
        !matches || !key || pairs.isEmpty())
        return {};
    // The first listed site the race is an instance of (listing more sites until one is).
    auto listedRow = [&]() -> int {
        for (int row = 0; row < sites_.size(); ++row)
            if (pairs.contains(sites_[row].site.pairId)) return row;
        return -1;
    };
    int row = listedRow();
    for (int page = 0; row < 0 && page < kJumpPages && canFetchMore(QModelIndex()); ++page) {
        const int before = int(sites_.size());
        fetchSites();
        for (int r = before; r < sites_.size() && row < 0; ++r)
            if (pairs.contains(sites_[r].site.pairId)) row = r;
    }
    if (row < 0 && !cursor_.done) {
        // Far down the list (listing up to it would scan most races of the run): the site is
        // appended to the rows loaded so far, led by this race, and not listed again later.
        const RaceGroup group = RaceGroup(key->group);
        RaceSiteRow site;
        if (!guarded([&] {
                site = database_->raceSite(run_, pairs.front(), id, key->partition, group);
            }))
            return {};
        cursor_.listed.insert(site.pairId);
        row = int(sites_.size());
        notifying_ = true;
        beginInsertRows(QModelIndex(), row, row);
        appendSites({site});
        endInsertRows();
        notifying_ = false;
    }
    if (row < 0) return {};
    const QModelIndex parent = index(row, 0);
    auto find = [&]() -> int {
        const QList<RaceSummary>& races = sites_[row].races;
        for (int i = int(races.size()) - 1; i >= 0; --i)
            if (races[i].id == id) return i;
        return -1;
    };
    int raceRow = find();
    while (raceRow < 0 && canFetchMore(parent)) {
        fetchRaces(row);
        raceRow = find();
    }
    return raceRow < 0 ? QModelIndex() : index(raceRow, 0, parent);
}

QVariant RaceSiteTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
    case SiteColumn:
        return tr("Race site / race");
    case StatusColumn:
        return tr("Races by status");
    case VariableColumn:
        return tr("Variable");
    case ThreadsColumn:
        return tr("Functions \u00b7 threads (event)");
    case PartitionColumn:
        return tr("Partition");
    default:
        return {};
    }
}

QVariant RaceSiteTreeModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid()) return {};
    if (!isRace(index)) {
        if (index.row() >= sites_.size()) return {};
        const bool needsCounts =
            index.column() == StatusColumn &&
            (role == Qt::DisplayRole || role == Qt::DecorationRole || role == Qt::ToolTipRole);
        if (needsCounts && !sites_[index.row()].site.counted)
            const_cast<RaceSiteTreeModel*>(this)->countFrom(index.row());
        const RaceSiteRow& s = sites_[index.row()].site;
        const bool first = s.group == RaceGroup::FirstPartition;
        switch (role) {
        case Qt::DisplayRole:
            switch (index.column()) {
            case SiteColumn:
                return siteText(s);
            case StatusColumn: {
                const QString total =
                    s.counts.races == 1 ? tr("1 race") : tr("%1 races").arg(s.counts.races);
                const QString parts = statusCounts(s.counts);
                return parts.isEmpty() ? total : total + QStringLiteral(": ") + parts;
            }
            case VariableColumn:
                return s.variable;
            case ThreadsColumn:
                return s.first.function == s.second.function
                           ? elideTemplateArguments(s.first.function)
                           : elideTemplateArguments(s.first.function) + QStringLiteral(" \u2194 ") +
                                 elideTemplateArguments(s.second.function);
            case PartitionColumn:
                return first ? tr("first (%1)").arg(s.leadPartition)
                             : QString::number(s.leadPartition);
            default:
                return {};
            }
        case Qt::DecorationRole:
            if (index.column() == SiteColumn) return partitionIcon(first);
            if (index.column() == StatusColumn)
                return statusIcon(strongestStatus(s.counts), s.counts.actual > 0);
            return {};
        case Qt::FontRole:
            if (first) {
                QFont font;
                font.setBold(true);
                return font;
            }
            return {};
        case Qt::BackgroundRole:
            return first ? QColor(0xff, 0xf8, 0xe1) : QVariant();
        case Qt::ToolTipRole:
            switch (index.column()) {
            case SiteColumn:
                return plainToolTip(QStringLiteral("%1\n%2\n\n%3")
                                        .arg(locationTip(s.first), locationTip(s.second),
                                             groupDescription(s.group)));
            case ThreadsColumn:
                return plainToolTip(
                    QStringLiteral("%1\n%2").arg(s.first.function, s.second.function));
            case VariableColumn:
                return plainToolTip(s.variable);
            default:
                return groupDescription(s.group);
            }
        case RaceIdRole:
            return s.leadRace;
        case PairIdRole:
            return s.pairId;
        case GroupRole:
            return int(s.group);
        default:
            return {};
        }
    }
    const RaceSummary* race = raceAt(index);
    if (!race) return {};
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case SiteColumn:
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
        case VariableColumn:
            return race->variables;
        case PartitionColumn:
            return race->firstPartition ? tr("first (%1)").arg(race->partition)
                                        : QString::number(race->partition);
        default:
            return {};
        }
    case Qt::DecorationRole:
        if (index.column() == StatusColumn)
            return statusIcon(race->status, race->actual.value_or(false));
        return {};
    case Qt::ToolTipRole:
        if (index.column() == StatusColumn) return statusDescription(race->status);
        if (index.column() == SiteColumn)
            return plainToolTip(race->locationA + QStringLiteral(" \u2194 ") + race->locationB);
        if (index.column() == VariableColumn) return plainToolTip(race->variables);
        return {};
    case RaceIdRole:
        return race->id;
    case PairIdRole:
        return sites_[int(index.internalId() - 1)].site.pairId;
    case GroupRole:
        return keyOf(*race).group;
    default:
        return {};
    }
}

} // namespace firstrace::gui
