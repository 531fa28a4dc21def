#include "status_icons.hpp"

#include <QHash>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace firstrace::gui {

QColor statusColor(RaceStatus status) {
    switch (status) {
    case RaceStatus::Feasible:
        return QColor(0xd3, 0x2f, 0x2f);
    case RaceStatus::FeasibleEc:
        return QColor(0xef, 0x8a, 0x17);
    case RaceStatus::Unvalidated:
        return QColor(0x75, 0x75, 0x75);
    }
    return Qt::black;
}

namespace {

QPixmap drawStatus(RaceStatus status, bool actual, int size) {
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    const QColor color = statusColor(status);
    const qreal margin = size * 0.18;
    const QRectF disc(margin, margin, size - 2 * margin, size - 2 * margin);
    switch (status) {
    case RaceStatus::Feasible:
        p.setPen(QPen(color.darker(130), size / 16.0));
        p.setBrush(color);
        p.drawEllipse(disc);
        break;
    case RaceStatus::FeasibleEc: {
        p.setPen(QPen(color, size / 10.0));
        p.setBrush(Qt::white);
        p.drawEllipse(disc);
        p.setPen(Qt::NoPen);
        p.setBrush(color);
        p.drawPie(disc, 90 * 16, 180 * 16);
        break;
    }
    case RaceStatus::Unvalidated:
        p.setPen(QPen(color, size / 9.0));
        p.setBrush(Qt::white); // stays visible on a selected row
        p.drawEllipse(disc.adjusted(size / 20.0, size / 20.0, -size / 20.0, -size / 20.0));
        break;
    }
    if (actual) {
        p.setPen(QPen(QColor(0x21, 0x21, 0x21), size / 14.0));
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(QRectF(size * 0.05, size * 0.05, size * 0.9, size * 0.9));
    }
    return pixmap;
}

QPixmap drawFlag(bool first, int size) {
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    const qreal s = size;
    p.setPen(QPen(QColor(0x42, 0x42, 0x42), s / 12.0, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(QPointF(s * 0.25, s * 0.12), QPointF(s * 0.25, s * 0.9));
    QPainterPath flag;
    flag.moveTo(s * 0.27, s * 0.14);
    flag.lineTo(s * 0.85, s * 0.3);
    flag.lineTo(s * 0.27, s * 0.5);
    flag.closeSubpath();
    p.setPen(Qt::NoPen);
    p.setBrush(first ? QColor(0xf9, 0xa8, 0x25) : QColor(0x90, 0xa4, 0xae));
    p.drawPath(flag);
    return pixmap;
}

} // namespace

QIcon statusIcon(RaceStatus status, bool actual) {
    static QHash<int, QIcon> cache;
    const int key = int(status) * 2 + (actual ? 1 : 0);
    auto it = cache.find(key);
    if (it != cache.end()) return *it;
    QIcon icon;
    for (int size : {16, 24, 32})
        icon.addPixmap(drawStatus(status, actual, size));
    cache.insert(key, icon);
    return icon;
}

QIcon partitionIcon(bool first) {
    static QHash<bool, QIcon> cache;
    auto it = cache.find(first);
    if (it != cache.end()) return *it;
    QIcon icon;
    for (int size : {16, 24, 32})
        icon.addPixmap(drawFlag(first, size));
    cache.insert(first, icon);
    return icon;
}

} // namespace firstrace::gui
