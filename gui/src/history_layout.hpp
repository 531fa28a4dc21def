// Where the history view puts each event. Lane = process. Along the lane, either
// - by index: column = longest path from the earliest shown event along process order and
//   synchronization edges, so that every synchronization edge points to the right and events
//   that are ordered never share a column; or
// - on a time axis, when the run has clock readings: each event spans the ticks of its start
//   and finish readings, a tick being a distinct clock value in increasing order (so events
//   that overlapped in time overlap on screen, without the empty stretches of raw clock values).
#pragma once

#include <QHash>

#include "results_records.hpp"

namespace firstrace::gui {

struct HistoryLayout {
    QHash<qint64, int> laneOf;     // process -> lane (row), in process order
    QHash<EventKey, int> columnOf; // event -> column
    int columns = 0;
    bool consistent = true; // false when the synchronization edges had a cycle
};

HistoryLayout layoutHistory(const HistoryData& history);

struct TimeAxisLayout {
    QHash<EventKey, std::pair<int, int>> span; // event -> (start tick, finish tick)
    QList<qint64> clockAt;                     // tick -> clock value
};

// Empty spans when some event shown has no clock reading.
TimeAxisLayout layoutTimeAxis(const HistoryData& history);

} // namespace firstrace::gui
