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

#include "status_icons.hpp"

namespace firstrace::gui {

namespace {

constexpr qreal kLaneHeight = 80;
constexpr qreal kColumnWidth = 136;    // a column holding a computation event
constexpr qreal kSyncColumnWidth = 84; // a column of synchronization events only
constexpr qreal kBoxWidth = 118;
constexpr qreal kBoxHeight = 40;
constexpr qreal kSyncSize = 18;
constexpr qreal kLabelWidth = 130;

// Item data keys.
constexpr int kKindKey = 0;
constexpr int kValueKey = 1;
enum ItemKind { EventItem = 1, RaceItem = 2 };

const QColor kSyncColor(0x37, 0x47, 0x4f);
const QColor kSharedDataColor(0x00, 0x89, 0x7b);
const QColor kEventControlColor(0x5e, 0x35, 0xb1);
const QColor kTangleColor(0xab, 0x47, 0xbc);

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
    const qreal target = std::clamp(current * factor, 0.15, 4.0);
    scale(target / current, target / current);
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
      tangle_(new QCheckBox(tr("Tangle"), this)), info_(new QLabel(this)),
      legend_(new QLabel(this)) {
    canvas_->setScene(scene_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);

    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 0);
    auto* title = new QLabel(tr("<b>History</b>"), this);
    bar->addWidget(title);
    bar->addSpacing(12);
    auto* sync = new QLabel(this);
    sync->setPixmap(lineIcon(kSyncColor, Qt::SolidLine).pixmap(28, 14));
    sync->setToolTip(tr("Synchronization edges of the temporal ordering graph G"));
    bar->addWidget(sync);
    bar->addWidget(new QLabel(tr("Synchronization"), this));
    bar->addSpacing(8);
    sharedData_->setIcon(lineIcon(kSharedDataColor, Qt::DashLine));
    sharedData_->setToolTip(tr("Shared-data dependence edges of G_D (a_s \u2192 b_f)"));
    eventControl_->setIcon(lineIcon(kEventControlColor, Qt::DotLine));
    eventControl_->setToolTip(tr("Event-control dependence edges of G_E"));
    tangle_->setToolTip(tr("Highlight the tangle (strongly connected component of G_D) of the "
                           "selected race"));
    tangle_->setChecked(true);
    for (QCheckBox* box : {sharedData_, eventControl_, tangle_}) {
        bar->addWidget(box);
        connect(box, &QCheckBox::toggled, this, &HistoryView::applyVisibility);
    }
    bar->addStretch(1);
    bar->addWidget(legend_);
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
    connect(canvas_, &HistoryCanvas::zoomed, this, [this] { userZoomed_ = true; });
    connect(canvas_, &HistoryCanvas::resized, this, [this] {
        if (!userZoomed_) fitOrCenter();
    });
    clear();
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
    if (bounds.isEmpty() || viewport.isEmpty()) return;
    const qreal scale =
        std::min(viewport.width() / bounds.width(), viewport.height() / bounds.height());
    if (scale >= 1.0) {
        canvas_->centerOn(bounds.center());
    } else if (scale >= 0.55) {
        fitAll();
    } else {
        centerOnFocus();
    }
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
}

void HistoryView::rebuild() {
    scene_->clear();
    boxes_.clear();
    raceMidpoints_.clear();
    sharedDataItems_.clear();
    eventControlItems_.clear();
    tangleItems_.clear();
    layout_ = layoutHistory(history_);
    legend_->clear();
    if (history_.events.isEmpty()) {
        scene_->setSceneRect(QRectF());
        return;
    }

    // Column widths: computation boxes need more room than synchronization diamonds.
    QList<qreal> columnWidth(std::max(1, layout_.columns), kSyncColumnWidth);
    for (const HistoryEvent& event : history_.events)
        if (event.computation) columnWidth[layout_.columnOf.value(event.key)] = kColumnWidth;
    QList<qreal> columnLeft(columnWidth.size() + 1, 0);
    for (int c = 0; c < columnWidth.size(); ++c)
        columnLeft[c + 1] = columnLeft[c] + columnWidth[c];
    const qreal width = columnLeft.back();
    QFont laneFont = font();
    laneFont.setBold(true);
    QFont smallFont = font();
    smallFont.setPointSizeF(font().pointSizeF() * 0.85);
    const QFontMetricsF smallMetrics(smallFont);

    // Lanes.
    for (int i = 0; i < history_.lanes.size(); ++i) {
        const HistoryLane& lane = history_.lanes[i];
        const qreal top = i * kLaneHeight;
        auto* band =
            scene_->addRect(QRectF(-kLabelWidth, top, width + kLabelWidth + 20, kLaneHeight),
                            Qt::NoPen, i % 2 ? QColor(0xf5, 0xf7, 0xf9) : QColor(Qt::white));
        band->setZValue(-10);
        scene_
            ->addLine(QLineF(-10, top + kLaneHeight / 2, width + 10, top + kLaneHeight / 2),
                      QPen(QColor(0xb0, 0xbe, 0xc5), 1.5))
            ->setZValue(-9);
        auto* name = scene_->addSimpleText(lane.name, laneFont);
        name->setPos(-kLabelWidth + 8,
                     top + kLaneHeight / 2 - name->boundingRect().height() / 2 - 6);
        QString range = lane.firstIndex == lane.lastIndex
                            ? tr("event %1").arg(lane.firstIndex)
                            : tr("events %1\u2013%2").arg(lane.firstIndex).arg(lane.lastIndex);
        if (lane.eventCount > 0) range += tr(" of %1").arg(lane.eventCount);
        auto* sub = scene_->addSimpleText(range, smallFont);
        sub->setBrush(QColor(0x75, 0x75, 0x75));
        sub->setPos(-kLabelWidth + 8, top + kLaneHeight / 2 + 4);
    }

    // Which events take part in the selected race and in its tangle.
    const HistoryRace* focus = nullptr;
    QSet<EventKey> tangleEvents;
    for (const HistoryRace& race : history_.races) {
        if (race.id == history_.focusRace) focus = &race;
        if (history_.focusTangle && race.tangle == history_.focusTangle) {
            tangleEvents.insert(race.a);
            tangleEvents.insert(race.b);
        }
    }

    // Events.
    for (int i = 0; i < history_.events.size(); ++i) {
        const HistoryEvent& event = history_.events[i];
        const int lane = layout_.laneOf.value(event.key.process, -1);
        if (lane < 0) continue;
        const int column = layout_.columnOf.value(event.key);
        const QPointF centre(columnLeft[column] + columnWidth[column] / 2,
                             lane * kLaneHeight + kLaneHeight / 2);
        const bool inFocus = focus && (focus->a == event.key || focus->b == event.key);
        QGraphicsItem* item = nullptr;
        if (event.computation) {
            const QRectF box(centre.x() - kBoxWidth / 2, centre.y() - kBoxHeight / 2, kBoxWidth,
                             kBoxHeight);
            QPainterPath path;
            path.addRoundedRect(box, 6, 6);
            const QColor border = inFocus ? statusColor(focus->status) : QColor(0x60, 0x7d, 0x8b);
            auto* rect = new QGraphicsPathItem(path);
            rect->setPen(QPen(border, inFocus ? 2.5 : 1.2));
            rect->setBrush(inFocus ? QColor(0xff, 0xeb, 0xee) : QColor(0xe8, 0xee, 0xf3));
            scene_->addItem(rect);
            auto* index =
                new QGraphicsSimpleTextItem(QStringLiteral("#%1").arg(event.key.index), rect);
            QFont bold = smallFont;
            bold.setBold(true);
            index->setFont(bold);
            index->setPos(box.left() + 6, box.top() + 3);
            // "file.c:20,21,23" that does not fit: the file beside the index, the lines below.
            QString top;
            QString bottom = event.label;
            const int colon = event.label.lastIndexOf(QLatin1Char(':'));
            if (smallMetrics.horizontalAdvance(event.label) > kBoxWidth - 12 && colon > 0 &&
                !event.label.left(colon).contains(QLatin1Char(' '))) {
                top = event.label.left(colon);
                bottom = tr("lines %1").arg(event.label.mid(colon + 1));
            }
            const qreal indexWidth = QFontMetricsF(bold).horizontalAdvance(index->text()) + 6;
            if (!top.isEmpty()) {
                auto* file = new QGraphicsSimpleTextItem(
                    smallMetrics.elidedText(top, Qt::ElideRight, kBoxWidth - 12 - indexWidth),
                    rect);
                file->setFont(smallFont);
                file->setPos(box.left() + 6 + indexWidth, box.top() + 3);
            }
            auto* label = new QGraphicsSimpleTextItem(
                smallMetrics.elidedText(bottom, Qt::ElideRight, kBoxWidth - 12), rect);
            label->setFont(smallFont);
            label->setPos(box.left() + 6, box.top() + 3 + smallMetrics.height());
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
            diamond->setPen(QPen(kSyncColor, 1.2));
            diamond->setBrush(QColor(0x54, 0x6e, 0x7a));
            scene_->addItem(diamond);
            auto* label = new QGraphicsSimpleTextItem(
                smallMetrics.elidedText(event.label, Qt::ElideRight, columnWidth[column] - 6),
                diamond);
            label->setFont(smallFont);
            label->setPos(centre.x() - label->boundingRect().width() / 2, disc.bottom() + 3);
            auto* index =
                new QGraphicsSimpleTextItem(QStringLiteral("#%1").arg(event.key.index), diamond);
            index->setFont(smallFont);
            index->setBrush(QColor(0x75, 0x75, 0x75));
            index->setPos(centre.x() - index->boundingRect().width() / 2,
                          disc.top() - 3 - smallMetrics.height());
            boxes_.insert(event.key, disc);
            item = diamond;
        }
        item->setData(kKindKey, EventItem);
        item->setData(kValueKey, i);
        item->setZValue(2);
        item->setToolTip(event.detail);
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

    // Lanes whose window does not start at the first event get a marker.
    for (int i = 0; i < history_.lanes.size(); ++i) {
        const HistoryLane& lane = history_.lanes[i];
        if (lane.firstIndex <= 0) continue;
        auto* more = scene_->addSimpleText(tr("\u22ef %1 earlier").arg(lane.firstIndex), smallFont);
        more->setBrush(QColor(0x90, 0x90, 0x90));
        more->setPos(4, i * kLaneHeight + 4);
    }

    // Edges: synchronization (solid), shared-data (dashed), event-control (dotted).
    auto anchor = [&](const EventKey& key, bool outgoing) {
        const QRectF box = boxes_.value(key);
        return QPointF(outgoing ? box.right() : box.left(), box.center().y());
    };
    for (const HistoryEdge& edge : history_.edges) {
        if (!boxes_.contains(edge.from) || !boxes_.contains(edge.to)) continue;
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
            group = &eventControlItems_;
        }
        if (edge.kind != HistoryEdgeKind::Synchronization) {
            // a_s -> b_f: from the start (left side) of a to the finish (right side) of b.
            from = anchor(edge.from, false);
            to = anchor(edge.to, true);
        }
        QPainterPath path(from);
        const qreal bend = edge.kind == HistoryEdgeKind::Synchronization ? 0 : 28;
        const QPointF mid =
            (from + to) / 2 + QPointF(0, edge.kind == HistoryEdgeKind::EventControl ? bend : -bend);
        path.quadTo(mid, to);
        auto* line = new WideShapePathItem(path);
        line->setPen(QPen(color, edge.transitive ? 1.0 : 1.6, style));
        line->setZValue(edge.kind == HistoryEdgeKind::Synchronization ? 0 : 1.5);
        line->setToolTip(edgeKindName(edge.kind) +
                         (edge.transitive ? tr(" (transitive)") : QString()));
        scene_->addItem(line);
        const qreal angle = std::atan2(to.y() - mid.y(), to.x() - mid.x());
        auto* head = new QGraphicsPolygonItem(arrowHead(to, angle, 8), line);
        head->setPen(Qt::NoPen);
        head->setBrush(color);
        if (group) group->append(line);
    }

    // Race edges between the centres of the two events, bowed so they stay clear of the
    // synchronization edges; the selected race is drawn thick.
    int raceCount = 0;
    for (const HistoryRace& race : history_.races) {
        if (!boxes_.contains(race.a) || !boxes_.contains(race.b)) continue;
        ++raceCount;
        const QPointF a = boxes_.value(race.a).center();
        const QPointF b = boxes_.value(race.b).center();
        const bool selected = race.id == history_.focusRace;
        const QPointF mid =
            (a + b) / 2 + QPointF(a.y() == b.y() ? 0 : 22, a.y() == b.y() ? -30 : 0);
        QPainterPath path(a);
        path.quadTo(mid, b);
        auto* edge = new WideShapePathItem(path);
        QColor color = statusColor(race.status);
        if (!selected) color.setAlpha(150);
        edge->setPen(QPen(color, selected ? 3.5 : 1.8, Qt::SolidLine, Qt::RoundCap));
        edge->setZValue(selected ? 4 : 3);
        edge->setData(kKindKey, RaceItem);
        edge->setData(kValueKey, race.id);
        edge->setCursor(Qt::PointingHandCursor);
        edge->setToolTip(
            tr("Race %1 (%2) \u2014 click to select").arg(race.id).arg(statusName(race.status)));
        scene_->addItem(edge);
        raceMidpoints_.insert(race.id, path.pointAtPercent(0.5));
    }

    QStringList legend;
    legend << (raceCount == 1 ? tr("1 race edge") : tr("%1 race edges").arg(raceCount));
    if (history_.focusTangle) legend << tr("tangle %1").arg(*history_.focusTangle);
    if (!layout_.consistent) legend << tr("synchronization cycle in data");
    legend_->setText(legend.join(QStringLiteral(" \u00b7 ")));
    scene_->setSceneRect(scene_->itemsBoundingRect().adjusted(-20, -20, 20, 20));
    applyVisibility();
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
    QString text = tr("%1 event #%2 (%3)").arg(lane).arg(event.key.index).arg(event.kind);
    if (event.clockStart)
        text += tr(", clock %1\u2013%2")
                    .arg(*event.clockStart)
                    .arg(event.clockFinish.value_or(*event.clockStart));
    if (!event.detail.isEmpty()) text += QStringLiteral(": ") + event.detail;
    info_->setText(text);
}

} // namespace firstrace::gui
