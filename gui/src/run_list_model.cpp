#include "run_list_model.hpp"

#include <QFileInfo>

#include "plain_tool_tip.hpp"
#include "results_database.hpp"

namespace firstrace::gui {

QString runTitle(const StoredRun& run) {
    QString when = run.createdAt;
    when.replace(QLatin1Char('T'), QLatin1Char(' '));
    if (when.size() > 16) when.truncate(16);
    return QStringLiteral("Run %1: %2, %3")
        .arg(run.id)
        .arg(QFileInfo(run.tracePath).fileName(), when);
}

QString runCountsText(const StoredRun& run) {
    QStringList statuses;
    if (run.feasible) statuses << QStringLiteral("%1 feasible").arg(run.feasible);
    if (run.feasibleEc) statuses << QStringLiteral("%1 feasible-ec").arg(run.feasibleEc);
    if (run.unvalidated) statuses << QStringLiteral("%1 unvalidated").arg(run.unvalidated);
    if (run.actual) statuses << QStringLiteral("%1 actual").arg(run.actual);
    QString text = QStringLiteral("%1 race%2 in %3 partition%4 (%5 first)")
                       .arg(run.races)
                       .arg(run.races == 1 ? "" : "s")
                       .arg(run.partitions)
                       .arg(run.partitions == 1 ? "" : "s")
                       .arg(run.firstPartitions);
    if (!statuses.isEmpty()) text += QStringLiteral(": ") + statuses.join(QStringLiteral(", "));
    return text;
}

RunListModel::RunListModel(QObject* parent) : QAbstractListModel(parent) {}

void RunListModel::setDatabase(const ResultsDatabase* database) {
    beginResetModel();
    runs_.clear();
    QString error;
    if (database) {
        try {
            runs_ = database->runs();
        } catch (const DatabaseError& e) {
            error = QString::fromStdString(e.what());
        }
    }
    endResetModel();
    if (!error.isEmpty()) emit errorOccurred(error);
}

int RunListModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(runs_.size());
}

int RunListModel::rowOfRun(qint64 id) const {
    for (int i = 0; i < runs_.size(); ++i)
        if (runs_[i].id == id) return i;
    return -1;
}

QVariant RunListModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= runs_.size()) return {};
    const StoredRun& run = runs_[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        return runTitle(run);
    case Qt::ToolTipRole:
        // One multi-argument arg(): a "%3" in the trace path is not substituted again.
        return plainToolTip(
            QStringLiteral("%1\n%2 ordering, %3 events in %4 processes, firstrace %5%6\n%7")
                .arg(run.tracePath, run.ordering, QString::number(run.events),
                     QString::number(run.processes), run.toolVersion,
                     run.truncated
                         ? QStringLiteral("\nThe trace was truncated (the program did not finish).")
                         : QString(),
                     runCountsText(run)));
    case RunIdRole:
        return run.id;
    default:
        return {};
    }
}

} // namespace firstrace::gui
