// The execution history around a race (issues 5, 15): one lane per process with its name in a
// fixed header, events as boxes on a time axis (clock readings) or by index, synchronization
// edges, the selected race and the race it is ordered after with the chain of events between
// them, and, switchable, the other races, the shared-data and event-control dependence edges
// and the tangle of the race. Ctrl+wheel or the buttons zoom (never further out than the whole
// window of events), dragging pans; clicking an event shows it below the view, clicking a race
// edge selects that race. The switches and zoom start afresh with each database.
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
    // A lane's header, drawn over the left edge of the view whatever the scroll position.
    struct LaneHeader {
        QString name;
        QString detail;
        qreal top = 0; // scene coordinates
        qreal bottom = 0;
    };
    static constexpr int kHeaderWidth = 120;

    explicit HistoryCanvas(QWidget* parent = nullptr);
    void zoomBy(qreal factor);
    qreal zoom() const { return transform().m11(); }
    void setMinimumZoom(qreal zoom) { minimumZoom_ = zoom; }
    void setLaneHeaders(const QList<LaneHeader>& headers);
    const QList<LaneHeader>& laneHeaders() const { return headers_; }

  signals:
    void itemClicked(QGraphicsItem* item);
    void zoomed();
    void resized();

  protected:
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void drawForeground(QPainter* painter, const QRectF& rect) override;

  private:
    QPoint pressPos_;
    QList<LaneHeader> headers_;
    qreal minimumZoom_ = 0.15;
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
    void setOtherRacesVisible(bool on);
    void setTimeAxis(bool on);
    bool sharedDataVisible() const;
    bool eventControlVisible() const;
    bool tangleVisible() const;
    bool otherRacesVisible() const;
    // On a time axis: the run has clock readings and the time-axis switch is on.
    bool timeAxisActive() const;
    // Switches back to the defaults (only the selected race's edges, time axis) and zoom 1.
    void resetViewSettings();

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
    int visibleRaceEdgeCount() const;
    // Events of the chain that orders the selected race after an earlier one, as drawn.
    QList<EventKey> drawnOrderChain() const { return drawnChain_; }
    QString eventInfoText() const;

  signals:
    void raceActivated(qint64 race);
    void eventActivated(const firstrace::gui::EventKey& key);

  private:
    void rebuild();
    void applyVisibility();
    void updateLevelOfDetail();
    void onItemClicked(QGraphicsItem* item);
    void showEventInfo(const HistoryEvent& event);

    HistoryCanvas* canvas_;
    QGraphicsScene* scene_;
    QCheckBox* sharedData_;
    QCheckBox* eventControl_;
    QCheckBox* tangle_;
    QCheckBox* otherRaces_;
    QCheckBox* timeAxis_;
    QLabel* info_;
    QLabel* legend_;
    HistoryData history_;
    HistoryLayout layout_;
    QHash<EventKey, QRectF> boxes_;
    QHash<qint64, QPointF> raceMidpoints_;
    QList<QGraphicsItem*> sharedDataItems_;
    QList<QGraphicsItem*> eventControlItems_;
    QList<QGraphicsItem*> tangleItems_;
    QList<QGraphicsItem*> otherRaceItems_;
    QList<QGraphicsItem*> detailItems_; // text hidden when zoomed out too far to read it
    QList<EventKey> drawnChain_;
    bool userZoomed_ = false;
};

} // namespace firstrace::gui
