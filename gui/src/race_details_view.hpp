// The selected race (issue 15): a summary line (status, partition, the memory the accesses
// share, what a race of a later partition is ordered after), then both events side by side —
// thread, creation, locks held, the call stacks of the access sites (user frames first,
// library frames folded, template arguments elided) — each above its source file with the
// racing lines highlighted. The source panes keep a readable height.
#pragma once

#include <QWidget>

#include <functional>

#include "results_records.hpp"

class QLabel;
class QSplitter;
class QTreeWidget;

namespace firstrace::gui {

class SourceView;

class RaceDetailsView : public QWidget {
    Q_OBJECT
  public:
    using SourceProvider = std::function<SourceText(const QString& file)>;

    explicit RaceDetailsView(QWidget* parent = nullptr);
    void setSourceProvider(SourceProvider provider) { sources_ = std::move(provider); }
    void showRace(const RaceDetails& race);
    void clear();

    QSplitter* splitter() const { return sides_; }
    SourceView* sourceA() const { return sourceA_; }
    SourceView* sourceB() const { return sourceB_; }
    QTreeWidget* stackTree(int side) const { return side == 0 ? stackA_ : stackB_; }
    QString summaryText() const;
    QString sideText(int side) const;

  signals:
    // The user clicked the race this one is ordered after (or another race link).
    void raceLinkActivated(qint64 race);

  private:
    void showSide(int side, const EventDetails& event, const QList<AccessSite>& sites);

    SourceProvider sources_;
    QLabel* summary_;
    QSplitter* sides_;
    QLabel* infoA_;
    QLabel* infoB_;
    QTreeWidget* stackA_;
    QTreeWidget* stackB_;
    SourceView* sourceA_;
    SourceView* sourceB_;
    RaceDetails race_;
};

// The file shown for one side and the lines to highlight in it: the first user frame of each
// access site's stack (the access itself when it has none), in the file of the first site.
std::pair<QString, QList<int>> racingLines(const QList<AccessSite>& sites);

} // namespace firstrace::gui
