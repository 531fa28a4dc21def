// The execution history around a race (issue 5): one lane per process, events as boxes,
// synchronization edges, and, switchable, the shared-data and event-control dependence edges
// and the tangle of the race. Ctrl+wheel or the buttons zoom, dragging pans; clicking an event
// shows it below the view, clicking a race edge selects that race.
#pragma once

#include <QGraphicsView>
#include <QHash>
#include <QWidget>

#include "history_layout.hpp"
#include "results_records.hpp"

class QCheckBox;
class QLabel;
class QGraphicsItem;

namespace firstrace::gui {

class HistoryCanvas : public QGraphicsView {
    Q_OBJECT
  public:
    explicit HistoryCanvas(QWidget* parent = nullptr);
    void zoomBy(qreal factor);

  signals:
    void itemClicked(QGraphicsItem* item);
    void zoomed();
    void resized();

  protected:
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

  private:
    QPoint pressPos_;
};

class HistoryView : public QWidget {
    Q_OBJECT
  public:
    explicit HistoryView(QWidget* parent = nullptr);

    void setHistory(const HistoryData& history);
    void clear();
    const HistoryData& history() const { return history_; }

    void setSharedDataVisible(bool on);
    void setEventControlVisible(bool on);
    void setTangleVisible(bool on);
    bool sharedDataVisible() const;
    bool eventControlVisible() const;
    bool tangleVisible() const;

    void zoomIn();
    void zoomOut();
    void fitAll();
    void centerOnFocus();
    // Shows a small history whole, a large one at full size around the selected race.
    void fitOrCenter();

    HistoryCanvas* canvas() const { return canvas_; }
    // Scene position of an event's box centre / the midpoint of a race edge (for tests and
    // for centring); null when not shown.
    std::optional<QPointF> eventPosition(const EventKey& key) const;
    std::optional<QPointF> raceEdgeMidpoint(qint64 race) const;
    int visibleEdgeCount(HistoryEdgeKind kind) const;
    QString eventInfoText() const;

  signals:
    void raceActivated(qint64 race);
    void eventActivated(const firstrace::gui::EventKey& key);

  private:
    void rebuild();
    void applyVisibility();
    void onItemClicked(QGraphicsItem* item);
    void showEventInfo(const HistoryEvent& event);

    HistoryCanvas* canvas_;
    QGraphicsScene* scene_;
    QCheckBox* sharedData_;
    QCheckBox* eventControl_;
    QCheckBox* tangle_;
    QLabel* info_;
    QLabel* legend_;
    HistoryData history_;
    HistoryLayout layout_;
    QHash<EventKey, QRectF> boxes_;
    QHash<qint64, QPointF> raceMidpoints_;
    QList<QGraphicsItem*> sharedDataItems_;
    QList<QGraphicsItem*> eventControlItems_;
    QList<QGraphicsItem*> tangleItems_;
    bool userZoomed_ = false;
};

} // namespace firstrace::gui
