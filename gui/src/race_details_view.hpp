// The selected race: both events side by side (thread, event index, calling context, the
// conflicting variables or ranges and the access sites of each side), each above its source
// file with the racing lines highlighted.
#pragma once

#include <QWidget>

#include <functional>

#include "results_records.hpp"

class QLabel;
class QSplitter;

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
    QString summaryText() const;
    QString sideText(int side) const;

  private:
    void showSide(int side, const EventDetails& event, const QList<SourceSite>& sites);

    SourceProvider sources_;
    QLabel* summary_;
    QSplitter* sides_;
    QLabel* infoA_;
    QLabel* infoB_;
    SourceView* sourceA_;
    SourceView* sourceB_;
    RaceDetails race_;
};

// The file shown for one side and the lines to highlight in it: the file of the first access
// site that has one, and every site line in that file.
std::pair<QString, QList<int>> racingLines(const QList<SourceSite>& sites);

} // namespace firstrace::gui
