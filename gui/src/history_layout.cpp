#include "history_layout.hpp"

#include <QList>

#include <algorithm>
#include <deque>

namespace firstrace::gui {

HistoryLayout layoutHistory(const HistoryData& history) {
    HistoryLayout layout;
    for (int i = 0; i < history.lanes.size(); ++i)
        layout.laneOf.insert(history.lanes[i].process, i);

    const int n = int(history.events.size());
    QHash<EventKey, int> node;
    node.reserve(n);
    for (int i = 0; i < n; ++i)
        node.insert(history.events[i].key, i);

    QList<QList<int>> successors(n);
    QList<int> indegree(n, 0);
    auto addEdge = [&](int from, int to) {
        successors[from].append(to);
        ++indegree[to];
    };
    // Process order: consecutive shown events of one process.
    QList<int> order(n);
    for (int i = 0; i < n; ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](int x, int y) {
        const EventKey& a = history.events[x].key;
        const EventKey& b = history.events[y].key;
        return a.process != b.process ? a.process < b.process : a.index < b.index;
    });
    for (int i = 1; i < n; ++i) {
        const EventKey& prev = history.events[order[i - 1]].key;
        const EventKey& cur = history.events[order[i]].key;
        if (prev.process == cur.process) addEdge(order[i - 1], order[i]);
    }
    for (const HistoryEdge& edge : history.edges) {
        if (edge.kind != HistoryEdgeKind::Synchronization) continue;
        auto from = node.constFind(edge.from);
        auto to = node.constFind(edge.to);
        if (from == node.constEnd() || to == node.constEnd() || *from == *to) continue;
        addEdge(*from, *to);
    }

    // Longest path by Kahn's algorithm; nodes left over (a cycle in bad data) go after.
    QList<int> column(n, 0);
    std::deque<int> ready;
    for (int i : order)
        if (indegree[i] == 0) ready.push_back(i);
    int placed = 0;
    while (!ready.empty()) {
        const int v = ready.front();
        ready.pop_front();
        ++placed;
        for (int w : successors[v]) {
            column[w] = std::max(column[w], column[v] + 1);
            if (--indegree[w] == 0) ready.push_back(w);
        }
    }
    if (placed != n) {
        layout.consistent = false;
        for (int i = 0; i < n; ++i)
            if (indegree[i] > 0) column[i] = int(history.events[i].key.index);
    }
    for (int i = 0; i < n; ++i) {
        layout.columnOf.insert(history.events[i].key, column[i]);
        layout.columns = std::max(layout.columns, column[i] + 1);
    }
    return layout;
}

TimeAxisLayout layoutTimeAxis(const HistoryData& history) {
    TimeAxisLayout layout;
    if (!history.hasClock()) return layout;
    QList<qint64> clocks;
    clocks.reserve(history.events.size() * 2);
    for (const HistoryEvent& event : history.events)
        clocks << *event.clockStart << *event.clockFinish;
    std::sort(clocks.begin(), clocks.end());
    clocks.erase(std::unique(clocks.begin(), clocks.end()), clocks.end());
    auto tick = [&](qint64 clock) {
        return int(std::lower_bound(clocks.begin(), clocks.end(), clock) - clocks.begin());
    };
    for (const HistoryEvent& event : history.events) {
        const int start = tick(*event.clockStart);
        layout.span.insert(event.key, {start, std::max(start, tick(*event.clockFinish))});
    }
    layout.clockAt = clocks;
    return layout;
}

} // namespace firstrace::gui
