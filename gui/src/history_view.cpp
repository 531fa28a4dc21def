#include "history_view.hpp"

#include <QCheckBox>
#include <QGraphicsPathItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPathStroker>
#include <QResizeEvent>
#include <QScrollBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <cmath>

#include "plain_tool_tip.hpp"
#include "status_icons.hpp"

namespace firstrace::gui {

namespace {

constexpr qreal kLaneHeight = 80;
constexpr qreal kColumnWidth = 136;    // a column holding a computation event
constexpr qreal kSyncColumnWidth = 84; // a column of synchronization events only
constexpr qreal kBoxWidth = 118;
constexpr qreal kBoxHeight = 40;
constexpr qreal kSyncSize = 18;
constexpr qreal kTickWidth = 64;      // time axis: one distinct clock reading
constexpr qreal kReadableZoom = 0.55; // below it, event texts are hidden (the overview)

// Item data keys.
constexpr int kKindKey = 0;
constexpr int kValueKey = 1;
enum ItemKind { EventItem = 1, RaceItem = 2 };

const QColor kSyncColor(0x37, 0x47, 0x4f);
const QColor kSharedDataColor(0x00, 0x89, 0x7b);
const QColor kEventControlColor(0x5e, 0x35, 0xb1);
const QColor kTangleColor(0xab, 0x47, 0xbc);
const QColor kOrderColor(0xef, 0x6c, 0x00);

// A path whose clickable area is wider than its pen, so thin edges can be clicked.
class WideShapePathItem : public QGraphicsPathItem {
  public:
    using QGraphicsPathItem::QGraphicsPathItem;
    QPainterPath shape() const override {
        QPainterPathStroker stroker;
        stroker.setWidth(12);
        return stroker.createStroke(path());
    }
};

QPolygonF arrowHead(const QPointF& tip, qreal angle, qreal size) {
    const QPointF left = tip - QPointF(std::cos(angle - 0.4) * size, std::sin(angle - 0.4) * size);
    const QPointF right = tip - QPointF(std::cos(angle + 0.4) * size, std::sin(angle + 0.4) * size);
    return QPolygonF({tip, left, right});
}

QIcon lineIcon(const QColor& color, Qt::PenStyle style) {
    QPixmap pixmap(28, 14);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(color, 2, style));
    p.drawLine(2, 7, 22, 7);
    p.setBrush(color);
    p.setPen(Qt::NoPen);
    p.drawPolygon(arrowHead(QPointF(26, 7), 0, 7));
    return QIcon(pixmap);
}

QString edgeKindName(HistoryEdgeKind kind) {
    switch (kind) {
    case HistoryEdgeKind::Synchronization:
        return QStringLiteral("synchronization");
    case HistoryEdgeKind::SharedData:
        return QStringLiteral("shared-data dependence");
    case HistoryEdgeKind::EventControl:
        return QStringLiteral("event-control dependence");
    }
    return QString();
}

} // namespace

HistoryCanvas::HistoryCanvas(QWidget* parent) : QGraphicsView(parent) {
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setViewportUpdateMode(QGraphicsView::BoundingRectViewportUpdate);
    setBackgroundBrush(Qt::white);
    setAlignment(Qt::AlignHCenter | Qt::AlignTop);
}

void HistoryCanvas::zoomBy(qreal factor) {
    const qreal current = transform().m11();
    const qreal target = std::clamp(current * factor, std::min(minimumZoom_, 1.0), 4.0);
    scale(target / current, target / current);
}

void HistoryCanvas::setLaneHeaders(const QList<LaneHeader>& headers) {
    headers_ = headers;
    viewport()->update();
}

void HistoryCanvas::drawForeground(QPainter* painter, const QRectF& rect) {
    QGraphicsView::drawForeground(painter, rect);
    if (headers_.isEmpty()) return;
    // Lane headers in viewport coordinates: fixed at the left edge, following the lanes
    // vertically.
    painter->save();
    painter->resetTransform();
    QFont bold = font();
    bold.setBold(true);
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.85);
    const QFontMetrics boldMetrics(bold);
    const QFontMetrics smallMetrics(small);
    for (int i = 0; i < headers_.size(); ++i) {
        const LaneHeader& header = headers_[i];
        const int top = mapFromScene(QPointF(0, header.top)).y();
        const int bottom = mapFromScene(QPointF(0, header.bottom)).y();
        const QRect box(0, top, kHeaderWidth, bottom - top);
        if (!box.intersects(viewport()->rect())) continue;
        painter->fillRect(box, i % 2 ? QColor(0xe9, 0xed, 0xf1) : QColor(0xf3, 0xf5, 0xf7));
        painter->setPen(QColor(0xb0, 0xbe, 0xc5));
        painter->drawLine(box.topRight(), box.bottomRight());
        const int middle = (top + bottom) / 2;
        painter->setPen(QColor(0x26, 0x32, 0x38));
        painter->setFont(bold);
        painter->drawText(
            QRect(6, middle - boldMetrics.height(), kHeaderWidth - 10, boldMetrics.height()),
            Qt::AlignLeft | Qt::AlignVCenter,
            boldMetrics.elidedText(header.name, Qt::ElideRight, kHeaderWidth - 10));
        if (bottom - top > boldMetrics.height() + smallMetrics.height()) {
            painter->setPen(QColor(0x75, 0x75, 0x75));
            painter->setFont(small);
            painter->drawText(
                QRect(6, middle + 1, kHeaderWidth - 10, smallMetrics.height()),
                Qt::AlignLeft | Qt::AlignVCenter,
                smallMetrics.elidedText(header.detail, Qt::ElideRight, kHeaderWidth - 10));
        }
    }
    painter->restore();
}

void HistoryCanvas::wheelEvent(QWheelEvent* event) {
    if (event->modifiers() & Qt::ControlModifier) {
        zoomBy(std::pow(1.0015, event->angleDelta().y()));
        emit zoomed();
        event->accept();
        return;
    }
    QGraphicsView::wheelEvent(event);
}

void HistoryCanvas::mousePressEvent(QMouseEvent* event) {
    pressPos_ = event->position().toPoint();
    QGraphicsView::mousePressEvent(event);
}

void HistoryCanvas::mouseReleaseEvent(QMouseEvent* event) {
    QGraphicsView::mouseReleaseEvent(event);
    if (event->button() != Qt::LeftButton) return;
    if ((event->position().toPoint() - pressPos_).manhattanLength() > 4) return; // a pan
    for (QGraphicsItem* item : items(event->position().toPoint())) {
        QGraphicsItem* target = item;
        while (target && !target->data(kKindKey).isValid())
            target = target->parentItem();
        if (target && target->isVisible()) {
            emit itemClicked(target);
            return;
        }
    }
}

HistoryView::HistoryView(QWidget* parent)
    : QWidget(parent), canvas_(new HistoryCanvas(this)), scene_(new QGraphicsScene(this)),
      sharedData_(new QCheckBox(tr("Shared-data"), this)),
      eventControl_(new QCheckBox(tr("Event-control"), this)),
      tangle_(new QCheckBox(tr("Tangle"), this)),
      otherRaces_(new QCheckBox(tr("Other races"), this)),
      timeAxis_(new QCheckBox(tr("Time"), this)), info_(new QLabel(this)),
      legend_(new QLabel(this)) {
    canvas_->setScene(scene_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 0);
    auto* title = new QLabel(tr("<b>History</b>"), this);
    bar->addWidget(title);
    bar->addSpacing(6);
    auto* sync = new QLabel(this);
    sync->setPixmap(lineIcon(kSyncColor, Qt::SolidLine).pixmap(28, 14));
    sync->setToolTip(tr("Synchronization edges of the temporal ordering graph G"));
    bar->addWidget(sync);
    bar->addSpacing(4);
    sharedData_->setIcon(lineIcon(kSharedDataColor, Qt::DashLine));
    sharedData_->setToolTip(tr("Shared-data dependence edges of G_D (a_s \u2192 b_f)"));
    eventControl_->setIcon(lineIcon(kEventControlColor, Qt::DotLine));
    eventControl_->setToolTip(tr("Event-control dependence edges of G_E"));
    tangle_->setToolTip(tr("Highlight the tangle (strongly connected component of G_D) of the "
                           "selected race"));
    otherRaces_->setToolTip(tr("Also draw the races other than the selected one (and the one "
                               "it is ordered after) whose two events are shown"));
    timeAxis_->setToolTip(tr("Place events by their clock readings (events that overlapped in "
                             "time overlap); off: by event order"));
    for (QCheckBox* box : {sharedData_, eventControl_, tangle_, otherRaces_}) {
        bar->addWidget(box);
        connect(box, &QCheckBox::toggled, this, &HistoryView::applyVisibility);
    }
    bar->addWidget(timeAxis_);
    connect(timeAxis_, &QCheckBox::toggled, this, [this] {
        rebuild();
        fitOrCenter();
    });
    // The legend yields its room first: the bar must not widen the window.
    legend_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    legend_->setMinimumWidth(40);
    bar->addWidget(legend_, 1);
    auto addButton = [&](const QString& text, const QString& tip, auto slot) {
        auto* button = new QToolButton(this);
        button->setText(text);
        button->setToolTip(tip);
        button->setAutoRaise(true);
        connect(button, &QToolButton::clicked, this, slot);
        bar->addWidget(button);
    };
    addButton(QStringLiteral("\u2212"), tr("Zoom out (Ctrl+wheel)"), &HistoryView::zoomOut);
    addButton(QStringLiteral("+"), tr("Zoom in (Ctrl+wheel)"), &HistoryView::zoomIn);
    addButton(tr("Fit"), tr("Show the whole history window"), &HistoryView::fitAll);
    addButton(tr("Race"), tr("Centre on the selected race"), &HistoryView::centerOnFocus);
    layout->addLayout(bar);
    layout->addWidget(canvas_, 1);
    info_->setTextFormat(Qt::PlainText);
    info_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    info_->setContentsMargins(6, 0, 6, 2);
    info_->setWordWrap(true);
    layout->addWidget(info_);

    connect(canvas_, &HistoryCanvas::itemClicked, this, &HistoryView::onItemClicked);
    connect(canvas_, &HistoryCanvas::zoomed, this, [this] {
        userZoomed_ = true;
        updateLevelOfDetail();
    });
    connect(canvas_, &HistoryCanvas::resized, this, [this] {
        if (!userZoomed_) fitOrCenter();
    });
    resetViewSettings();
    clear();
}

void HistoryView::resetViewSettings() {
    for (QCheckBox* box : {sharedData_, eventControl_, tangle_, otherRaces_, timeAxis_})
        box->blockSignals(true);
    sharedData_->setChecked(false);
    eventControl_->setChecked(false);
    otherRaces_->setChecked(false);
    tangle_->setChecked(true);
    timeAxis_->setChecked(true);
    for (QCheckBox* box : {sharedData_, eventControl_, tangle_, otherRaces_, timeAxis_})
        box->blockSignals(false);
    userZoomed_ = false;
    canvas_->resetTransform();
    rebuild();
}

bool HistoryView::timeAxisActive() const {
    return timeAxis_->isChecked() && history_.hasClock();
}

void HistoryView::updateLevelOfDetail() {
    const bool readable = canvas_->zoom() >= kReadableZoom;
    for (QGraphicsItem* item : detailItems_)
        item->setVisible(readable);
}

void HistoryView::clear() {
    history_ = HistoryData();
    rebuild();
    info_->setText(tr("Select a race to see the execution history around it."));
}

void HistoryView::setHistory(const HistoryData& history) {
    history_ = history;
    userZoomed_ = false;
    rebuild();
    info_->setText(tr("Click an event to see it; click a race edge to select that race."));
    fitOrCenter();
}

void HistoryView::fitOrCenter() {
    // Small histories are shown whole; larger ones at full size around the race.
    canvas_->resetTransform();
    const QRectF bounds = scene_->itemsBoundingRect();
    const QSize viewport = canvas_->viewport()->size();
    if (bounds.isEmpty() || viewport.isEmpty()) {
        updateLevelOfDetail();
        return;
    }
    const qreal scale =
        std::min(viewport.width() / bounds.width(), viewport.height() / bounds.height());
    // Zoomed out no further than the whole window of events: the view never shrinks into a
    // corner of an empty pane.
    canvas_->setMinimumZoom(scale);
    if (scale >= 1.0) {
        canvas_->centerOn(bounds.center());
    } else if (scale >= 0.55) {
        fitAll();
    } else {
        centerOnFocus();
    }
    updateLevelOfDetail();
}

void HistoryCanvas::resizeEvent(QResizeEvent* event) {
    QGraphicsView::resizeEvent(event);
    emit resized();
}

bool HistoryView::sharedDataVisible() const {
    return sharedData_->isChecked();
}
bool HistoryView::eventControlVisible() const {
    return eventControl_->isChecked();
}
bool HistoryView::tangleVisible() const {
    return tangle_->isChecked();
}
void HistoryView::setSharedDataVisible(bool on) {
    sharedData_->setChecked(on);
}
void HistoryView::setEventControlVisible(bool on) {
    eventControl_->setChecked(on);
}
void HistoryView::setTangleVisible(bool on) {
    tangle_->setChecked(on);
}
bool HistoryView::otherRacesVisible() const {
    return otherRaces_->isChecked();
}
void HistoryView::setOtherRacesVisible(bool on) {
    otherRaces_->setChecked(on);
}
void HistoryView::setTimeAxis(bool on) {
    timeAxis_->setChecked(on);
}

int HistoryView::visibleRaceEdgeCount() const {
    int count = 0;
    for (QGraphicsItem* item : scene_->items())
        if (item->data(kKindKey).toInt() == RaceItem && item->isVisible()) ++count;
    return count;
}

void HistoryView::zoomIn() {
    userZoomed_ = true;
    canvas_->zoomBy(1.25);
}

void HistoryView::zoomOut() {
    userZoomed_ = true;
    canvas_->zoomBy(0.8);
}

void HistoryView::fitAll() {
    if (scene_->items().isEmpty()) return;
    canvas_->fitInView(scene_->itemsBoundingRect().adjusted(-10, -10, 10, 10), Qt::KeepAspectRatio);
    if (canvas_->transform().m11() > 1.0) canvas_->resetTransform();
    updateLevelOfDetail();
}

void HistoryView::centerOnFocus() {
    // Both events of the race in view: zoomed out as far as 0.4 if need be, else the first one.
    const HistoryRace* focus = nullptr;
    for (const HistoryRace& race : history_.races)
        if (race.id == history_.focusRace) focus = &race;
    if (!focus || !boxes_.contains(focus->a) || !boxes_.contains(focus->b)) return;
    const QRectF both =
        boxes_.value(focus->a).united(boxes_.value(focus->b)).adjusted(-90, -50, 90, 50);
    const QSize viewport = canvas_->viewport()->size();
    const qreal current = canvas_->transform().m11();
    const qreal needed =
        std::min(viewport.width() / both.width(), viewport.height() / both.height());
    if (needed >= current) {
        canvas_->centerOn(both.center());
    } else if (needed >= 0.4) {
        canvas_->resetTransform();
        canvas_->scale(needed, needed);
        canvas_->centerOn(both.center());
    } else {
        canvas_->centerOn(boxes_.value(focus->a).center());
    }
}

std::optional<QPointF> HistoryView::eventPosition(const EventKey& key) const {
    auto it = boxes_.constFind(key);
    if (it == boxes_.constEnd()) return std::nullopt;
    return it->center();
}

std::optional<QPointF> HistoryView::raceEdgeMidpoint(qint64 race) const {
    auto it = raceMidpoints_.constFind(race);
    if (it == raceMidpoints_.constEnd()) return std::nullopt;
    return *it;
}

int HistoryView::visibleEdgeCount(HistoryEdgeKind kind) const {
    const QList<QGraphicsItem*>* items = kind == HistoryEdgeKind::SharedData ? &sharedDataItems_
                                         : kind == HistoryEdgeKind::EventControl
                                             ? &eventControlItems_
                                             : nullptr;
    if (!items) {
        int count = 0;
        for (const HistoryEdge& edge : history_.edges)
            if (edge.kind == kind && boxes_.contains(edge.from) && boxes_.contains(edge.to))
                ++count;
        return count;
    }
    int count = 0;
    for (QGraphicsItem* item : *items)
        if (item->isVisible()) ++count;
    return count;
}

QString HistoryView::eventInfoText() const {
    return info_->text();
}

void HistoryView::applyVisibility() {
    for (QGraphicsItem* item : sharedDataItems_)
        item->setVisible(sharedData_->isChecked());
    for (QGraphicsItem* item : eventControlItems_)
        item->setVisible(eventControl_->isChecked());
    for (QGraphicsItem* item : tangleItems_)
        item->setVisible(tangle_->isChecked());
    for (QGraphicsItem* item : otherRaceItems_)
        item->setVisible(otherRaces_->isChecked());
}

void HistoryView::rebuild() {
    scene_->clear();
    boxes_.clear();
    raceMidpoints_.clear();
    sharedDataItems_.clear();
    eventControlItems_.clear();
    tangleItems_.clear();
    otherRaceItems_.clear();
    detailItems_.clear();
    drawnChain_.clear();
    layout_ = layoutHistory(history_);
    legend_->clear();
    timeAxis_->setEnabled(history_.hasClock());
    if (history_.events.isEmpty()) {
        canvas_->setLaneHeaders({});
        scene_->setSceneRect(QRectF());
        return;
    }

    // Horizontal extent of each event: its clock ticks on the time axis, else its column
    // (computation boxes need more room than synchronization diamonds).
    const bool timeAxis = timeAxisActive();
    const TimeAxisLayout time = timeAxis ? layoutTimeAxis(history_) : TimeAxisLayout();
    QList<qreal> columnWidth(std::max(1, layout_.columns), kSyncColumnWidth);
    for (const HistoryEvent& event : history_.events)
        if (event.computation) columnWidth[layout_.columnOf.value(event.key)] = kColumnWidth;
    QList<qreal> columnLeft(columnWidth.size() + 1, 0);
    for (int c = 0; c < columnWidth.size(); ++c)
        columnLeft[c + 1] = columnLeft[c] + columnWidth[c];
    auto extent = [&](const HistoryEvent& event) -> std::pair<qreal, qreal> {
        if (timeAxis) {
            const auto [start, finish] = time.span.value(event.key);
            return {start * kTickWidth, finish * kTickWidth + kTickWidth * 0.8};
        }
        const int column = layout_.columnOf.value(event.key);
        const qreal middle = columnLeft[column] + columnWidth[column] / 2;
        const qreal half = (event.computation ? kBoxWidth : kSyncColumnWidth - 6) / 2;
        return {middle - half, middle + half};
    };
    qreal width = 0;
    for (const HistoryEvent& event : history_.events)
        width = std::max(width, extent(event).second);
    const qreal left = -HistoryCanvas::kHeaderWidth - 10; // room under the fixed lane headers

    QFont smallFont = font();
    smallFont.setPointSizeF(font().pointSizeF() * 0.85);
    const QFontMetricsF smallMetrics(smallFont);
    QFont bold = smallFont;
    bold.setBold(true);
    const QFontMetricsF boldMetrics(bold);

    // Lanes: bands and axis lines in the scene, names in the fixed headers.
    QList<HistoryCanvas::LaneHeader> headers;
    for (int i = 0; i < history_.lanes.size(); ++i) {
        const HistoryLane& lane = history_.lanes[i];
        const qreal top = i * kLaneHeight;
        auto* band = scene_->addRect(QRectF(left, top, width - left + 20, kLaneHeight), Qt::NoPen,
                                     i % 2 ? QColor(0xf5, 0xf7, 0xf9) : QColor(Qt::white));
        band->setZValue(-10);
        scene_
            ->addLine(QLineF(-10, top + kLaneHeight / 2, width + 10, top + kLaneHeight / 2),
                      QPen(QColor(0xb0, 0xbe, 0xc5), 1.5))
            ->setZValue(-9);
        QString range = lane.firstIndex == lane.lastIndex
                            ? tr("event %1").arg(lane.firstIndex)
                            : tr("events %1\u2013%2").arg(lane.firstIndex).arg(lane.lastIndex);
        if (lane.eventCount > 0) range += tr(" of %1").arg(lane.eventCount);
        headers.append({lane.name, range, top, top + kLaneHeight});
        if (lane.firstIndex > 0) {
            auto* more =
                scene_->addSimpleText(tr("\u22ef %1 earlier").arg(lane.firstIndex), smallFont);
            more->setBrush(QColor(0x90, 0x90, 0x90));
            more->setPos(-8 - more->boundingRect().width(), top + 4);
            detailItems_.append(more);
        }
    }
    canvas_->setLaneHeaders(headers);

    // Which events take part in the selected race, the one it is ordered after, its tangle.
    const HistoryRace* focus = nullptr;
    const HistoryRace* earlier = nullptr;
    QSet<EventKey> tangleEvents;
    for (const HistoryRace& race : history_.races) {
        if (race.id == history_.focusRace) focus = &race;
        if (history_.orderedAfterRace && race.id == *history_.orderedAfterRace) earlier = &race;
        if (history_.focusTangle && race.tangle == history_.focusTangle) {
            tangleEvents.insert(race.a);
            tangleEvents.insert(race.b);
        }
    }
    const QSet<EventKey> chainEvents(history_.orderChain.begin(), history_.orderChain.end());

    // Events.
    for (int i = 0; i < history_.events.size(); ++i) {
        const HistoryEvent& event = history_.events[i];
        const int lane = layout_.laneOf.value(event.key.process, -1);
        if (lane < 0) continue;
        const auto [x0, x1] = extent(event);
        const QPointF centre((x0 + x1) / 2, lane * kLaneHeight + kLaneHeight / 2);
        const bool inFocus = focus && (focus->a == event.key || focus->b == event.key);
        const bool inEarlier = earlier && (earlier->a == event.key || earlier->b == event.key);
        QString tip = event.label;
        if (!event.detail.isEmpty() && event.detail != event.label)
            tip += QLatin1Char('\n') + event.detail;
        if (event.clockStart)
            tip += tr("\nclock %1\u2013%2")
                       .arg(*event.clockStart)
                       .arg(event.clockFinish.value_or(*event.clockStart));
        QGraphicsItem* item = nullptr;
        if (event.computation) {
            const QRectF box(x0, centre.y() - kBoxHeight / 2, x1 - x0, kBoxHeight);
            QPainterPath path;
            path.addRoundedRect(box, 6, 6);
            const QColor border = inFocus     ? statusColor(focus->status)
                                  : inEarlier ? kOrderColor
                                              : QColor(0x60, 0x7d, 0x8b);
            auto* rect = new QGraphicsPathItem(path);
            rect->setPen(QPen(border, inFocus || inEarlier ? 2.5 : 1.2));
            rect->setBrush(inFocus     ? QColor(0xff, 0xeb, 0xee)
                           : inEarlier ? QColor(0xff, 0xf3, 0xe0)
                                       : QColor(0xe8, 0xee, 0xf3));
            scene_->addItem(rect);
            // "#12" and, below it, the access lines — elided to the box, whole in the tool tip.
            const qreal room = box.width() - 10;
            auto* index = new QGraphicsSimpleTextItem(
                boldMetrics.elidedText(QStringLiteral("#%1").arg(event.key.index), Qt::ElideRight,
                                       room),
                rect);
            index->setFont(bold);
            index->setPos(box.left() + 5, box.top() + 3);
            detailItems_.append(index);
            auto* label = new QGraphicsSimpleTextItem(
                smallMetrics.elidedText(event.label, Qt::ElideMiddle, room), rect);
            label->setFont(smallFont);
            label->setPos(box.left() + 5, box.top() + 3 + smallMetrics.height());
            detailItems_.append(label);
            boxes_.insert(event.key, box);
            item = rect;
        } else {
            const QRectF disc(centre.x() - kSyncSize / 2, centre.y() - kSyncSize / 2, kSyncSize,
                              kSyncSize);
            QPainterPath path;
            path.moveTo(disc.center().x(), disc.top());
            path.lineTo(disc.right(), disc.center().y());
            path.lineTo(disc.center().x(), disc.bottom());
            path.lineTo(disc.left(), disc.center().y());
            path.closeSubpath();
            auto* diamond = new QGraphicsPathItem(path);
            diamond->setPen(QPen(chainEvents.contains(event.key) ? kOrderColor : kSyncColor, 1.2));
            diamond->setBrush(chainEvents.contains(event.key) ? kOrderColor
                                                              : QColor(0x54, 0x6e, 0x7a));
            scene_->addItem(diamond);
            const qreal room = std::max<qreal>(x1 - x0, kSyncColumnWidth - 6);
            auto* label = new QGraphicsSimpleTextItem(
                smallMetrics.elidedText(event.label, Qt::ElideMiddle, room), diamond);
            label->setFont(smallFont);
            label->setPos(centre.x() - label->boundingRect().width() / 2, disc.bottom() + 3);
            detailItems_.append(label);
            auto* index =
                new QGraphicsSimpleTextItem(QStringLiteral("#%1").arg(event.key.index), diamond);
            index->setFont(smallFont);
            index->setBrush(QColor(0x75, 0x75, 0x75));
            index->setPos(centre.x() - index->boundingRect().width() / 2,
                          disc.top() - 3 - smallMetrics.height());
            detailItems_.append(index);
            boxes_.insert(event.key, disc);
            item = diamond;
        }
        item->setData(kKindKey, EventItem);
        item->setData(kValueKey, i);
        item->setZValue(2);
        item->setToolTip(plainToolTip(tip));
        item->setCursor(Qt::PointingHandCursor);
        if (tangleEvents.contains(event.key)) {
            const QRectF halo = boxes_.value(event.key).adjusted(-7, -7, 7, 7);
            QPainterPath path;
            path.addRoundedRect(halo, 10, 10);
            auto* glow = scene_->addPath(
                path, QPen(kTangleColor, 1.5, Qt::DashLine),
                QColor(kTangleColor.red(), kTangleColor.green(), kTangleColor.blue(), 45));
            glow->setZValue(1);
            glow->setToolTip(tr("In tangle %1").arg(*history_.focusTangle));
            tangleItems_.append(glow);
        }
    }

    // Edges: synchronization (solid), shared-data (dashed), event-control (dotted); the links
    // of the chain ordering the race after the earlier one are drawn thick in orange.
    auto anchor = [&](const EventKey& key, bool outgoing) {
        const QRectF box = boxes_.value(key);
        return QPointF(outgoing ? box.right() : box.left(), box.center().y());
    };
    QSet<std::pair<qint64, qint64>> chainLinks; // (from, to) as hashes of consecutive events
    auto linkKey = [](const EventKey& from, const EventKey& to) {
        return std::pair<qint64, qint64>(qint64(qHash(from)), qint64(qHash(to)));
    };
    for (int i = 1; i < history_.orderChain.size(); ++i)
        chainLinks.insert(linkKey(history_.orderChain[i - 1], history_.orderChain[i]));
    for (const HistoryEdge& edge : history_.edges) {
        if (!boxes_.contains(edge.from) || !boxes_.contains(edge.to)) continue;
        const bool inChain = chainLinks.contains(linkKey(edge.from, edge.to));
        QColor color = kSyncColor;
        Qt::PenStyle style = Qt::SolidLine;
        QList<QGraphicsItem*>* group = nullptr;
        QPointF from = anchor(edge.from, true);
        QPointF to = anchor(edge.to, false);
        if (edge.kind == HistoryEdgeKind::SharedData) {
            color = kSharedDataColor;
            style = edge.transitive ? Qt::DashDotLine : Qt::DashLine;
            group = &sharedDataItems_;
        } else if (edge.kind == HistoryEdgeKind::EventControl) {
            color = kEventControlColor;
            style = Qt::DotLine;
            group = inChain ? nullptr : &eventControlItems_;
        }
        if (edge.kind != HistoryEdgeKind::Synchronization) {
            // a_s -> b_f: from the start (left side) of a to the finish (right side) of b.
            from = anchor(edge.from, false);
            to = anchor(edge.to, true);
        }
        if (inChain) color = kOrderColor;
        QPainterPath path(from);
        const qreal bend = edge.kind == HistoryEdgeKind::Synchronization ? 0 : 28;
        const QPointF mid =
            (from + to) / 2 + QPointF(0, edge.kind == HistoryEdgeKind::EventControl ? bend : -bend);
        path.quadTo(mid, to);
        auto* line = new WideShapePathItem(path);
        QPen pen(color, inChain ? 3.0 : edge.transitive ? 1.0 : 1.6, style);
        pen.setCosmetic(inChain);
        line->setPen(pen);
        line->setZValue(inChain ? 3.5 : edge.kind == HistoryEdgeKind::Synchronization ? 0 : 1.5);
        line->setToolTip(edgeKindName(edge.kind) +
                         (edge.transitive ? tr(" (transitive)") : QString()) +
                         (inChain ? tr("\nPart of the chain that orders race %1 after race %2")
                                        .arg(history_.focusRace)
                                        .arg(history_.orderedAfterRace.value_or(-1))
                                  : QString()));
        scene_->addItem(line);
        const qreal angle = std::atan2(to.y() - mid.y(), to.x() - mid.x());
        auto* head = new QGraphicsPolygonItem(arrowHead(to, angle, 8), line);
        head->setPen(Qt::NoPen);
        head->setBrush(color);
        if (group) group->append(line);
    }
    // Process-order links of the chain (consecutive events of one lane).
    for (int i = 1; i < history_.orderChain.size(); ++i) {
        const EventKey& from = history_.orderChain[i - 1];
        const EventKey& to = history_.orderChain[i];
        if (from.process != to.process || !boxes_.contains(from) || !boxes_.contains(to)) continue;
        QPen pen(kOrderColor, 3.0);
        pen.setCosmetic(true);
        auto* line = scene_->addLine(QLineF(anchor(from, true), anchor(to, false)), pen);
        line->setZValue(3.5);
    }
    drawnChain_ = history_.orderChain;

    // Race edges between the centres of the two events, bowed so they stay clear of the
    // synchronization edges: the selected race thick, the one it is ordered after dashed in
    // orange, the others (switch "Other races") thin.
    int raceCount = 0;
    for (const HistoryRace& race : history_.races) {
        if (!boxes_.contains(race.a) || !boxes_.contains(race.b)) continue;
        ++raceCount;
        const QPointF a = boxes_.value(race.a).center();
        const QPointF b = boxes_.value(race.b).center();
        const bool selected = race.id == history_.focusRace;
        const bool isEarlier = earlier && race.id == earlier->id;
        const QPointF mid =
            (a + b) / 2 + QPointF(a.y() == b.y() ? 0 : 22, a.y() == b.y() ? -30 : 0);
        QPainterPath path(a);
        path.quadTo(mid, b);
        auto* edge = new WideShapePathItem(path);
        QColor color = isEarlier ? kOrderColor : statusColor(race.status);
        if (!selected && !isEarlier) color.setAlpha(150);
        QPen pen(color,
                 selected    ? 3.5
                 : isEarlier ? 3.0
                             : 1.8,
                 isEarlier ? Qt::DashLine : Qt::SolidLine, Qt::RoundCap);
        pen.setCosmetic(selected || isEarlier); // visible at any zoom
        edge->setPen(pen);
        edge->setZValue(selected ? 4 : 3);
        edge->setData(kKindKey, RaceItem);
        edge->setData(kValueKey, race.id);
        edge->setCursor(Qt::PointingHandCursor);
        edge->setToolTip(isEarlier ? tr("Race %1 (%2): race %3 is ordered after it \u2014 click "
                                        "to select it")
                                         .arg(race.id)
                                         .arg(statusName(race.status))
                                         .arg(history_.focusRace)
                                   : tr("Race %1 (%2) \u2014 click to select")
                                         .arg(race.id)
                                         .arg(statusName(race.status)));
        scene_->addItem(edge);
        if (!selected && !isEarlier) otherRaceItems_.append(edge);
        raceMidpoints_.insert(race.id, path.pointAtPercent(0.5));
        if (isEarlier) {
            auto* label = scene_->addSimpleText(tr("ordered after race %1").arg(race.id), bold);
            label->setBrush(kOrderColor);
            label->setPos(path.pointAtPercent(0.5) + QPointF(6, -boldMetrics.height()));
            label->setZValue(5);
            label->setData(kKindKey, RaceItem);
            label->setData(kValueKey, race.id);
            label->setCursor(Qt::PointingHandCursor);
        }
    }

    QStringList legend;
    legend << (raceCount == 1 ? tr("1 race edge") : tr("%1 race edges").arg(raceCount));
    if (history_.orderedAfterRace)
        legend << (history_.orderChain.isEmpty()
                       ? tr("after race %1").arg(*history_.orderedAfterRace)
                       : tr("after race %1 via %2 events")
                             .arg(*history_.orderedAfterRace)
                             .arg(history_.orderChain.size()));
    if (history_.focusTangle) legend << tr("tangle %1").arg(*history_.focusTangle);
    if (!layout_.consistent) legend << tr("synchronization cycle in data");
    legend_->setText(legend.join(QStringLiteral(" \u00b7 ")));
    scene_->setSceneRect(scene_->itemsBoundingRect().adjusted(-20, -20, 20, 20));
    applyVisibility();
    updateLevelOfDetail();
}

void HistoryView::onItemClicked(QGraphicsItem* item) {
    const int kind = item->data(kKindKey).toInt();
    if (kind == RaceItem) {
        const qint64 race = item->data(kValueKey).toLongLong();
        info_->setText(tr("Race %1").arg(race));
        emit raceActivated(race);
    } else if (kind == EventItem) {
        const int i = item->data(kValueKey).toInt();
        if (i < 0 || i >= history_.events.size()) return;
        showEventInfo(history_.events[i]);
        emit eventActivated(history_.events[i].key);
    }
}

void HistoryView::showEventInfo(const HistoryEvent& event) {
    QString lane;
    for (const HistoryLane& l : history_.lanes)
        if (l.process == event.key.process) lane = l.name;
    QString text = tr("%1 event #%2 (%3)").arg(lane, QString::number(event.key.index), event.kind);
    if (event.clockStart)
        text += tr(", clock %1\u2013%2")
                    .arg(*event.clockStart)
                    .arg(event.clockFinish.value_or(*event.clockStart));
    if (!event.detail.isEmpty()) text += QStringLiteral(": ") + event.detail;
    info_->setText(text);
}

} // namespace firstrace::gui
