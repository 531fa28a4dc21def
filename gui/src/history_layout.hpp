// Where the history view puts each event: lane = process, column = longest path from the
// earliest shown event along process order and synchronization edges, so that every
// synchronization edge points to the right and events that are ordered never share a column.
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

} // namespace firstrace::gui
