// Icons and colours of the race statuses, drawn with QPainter so that the browser needs no
// image resources and every view uses the same palette.
#pragma once

#include <QColor>
#include <QIcon>

#include "results_records.hpp"

namespace firstrace::gui {

QColor statusColor(RaceStatus status);
// A filled disc for feasible races, a half disc for feasible-ec, a ring for unvalidated;
// `actual` adds a dark outer ring (the two events really overlapped).
QIcon statusIcon(RaceStatus status, bool actual = false);
// The icon of a partition: a flag, gold for a first partition.
QIcon partitionIcon(bool first);

} // namespace firstrace::gui
