// The runs stored in a results database (one per `firstrace analyze -o`), newest last.
#pragma once

#include <QAbstractListModel>

#include "results_records.hpp"

namespace firstrace::gui {

class ResultsDatabase;

class RunListModel : public QAbstractListModel {
    Q_OBJECT
  public:
    enum Role { RunIdRole = Qt::UserRole + 1 };
    explicit RunListModel(QObject* parent = nullptr);

    // Reads the runs; on a damaged database the list stays empty and errorOccurred is emitted.
    void setDatabase(const ResultsDatabase* database);
    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    const StoredRun& run(int row) const { return runs_.at(row); }
    int rowOfRun(qint64 id) const;

  signals:
    void errorOccurred(const QString& message);

  private:
    QList<StoredRun> runs_;
};

// "figure-2-1.std, 2026-11-22 11:00 (complete ordering)".
QString runTitle(const StoredRun& run);
// "5 races in 3 partitions (2 first): 3 feasible, 2 unvalidated".
QString runCountsText(const StoredRun& run);

} // namespace firstrace::gui
