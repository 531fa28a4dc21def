#include "order_chain.hpp"

#include <QHash>

#include <algorithm>
#include <deque>

namespace firstrace::gui {

QList<EventKey> orderChain(const HistoryData& history, const std::pair<EventKey, EventKey>& earlier,
                           const std::pair<EventKey, EventKey>& later) {
    QHash<EventKey, QList<EventKey>> successors;
    // Process order between consecutive events shown of one process (within a lane's window
    // the shown events are consecutive).
    QList<EventKey> events;
    for (const HistoryEvent& event : history.events)
        events << event.key;
    std::sort(events.begin(), events.end(), [](const EventKey& x, const EventKey& y) {
        return x.process != y.process ? x.process < y.process : x.index < y.index;
    });
    for (int i = 1; i < events.size(); ++i)
        if (events[i - 1].process == events[i].process &&
            events[i - 1].index + 1 == events[i].index)
            successors[events[i - 1]] << events[i];
    for (const HistoryEdge& edge : history.edges)
        if (edge.kind != HistoryEdgeKind::SharedData) successors[edge.from] << edge.to;

    QHash<EventKey, EventKey> previous;
    std::deque<EventKey> queue;
    for (const EventKey& start : {earlier.first, earlier.second}) {
        if (previous.contains(start)) continue;
        previous.insert(start, start);
        queue.push_back(start);
    }
    while (!queue.empty()) {
        const EventKey v = queue.front();
        queue.pop_front();
        if (v == later.first || v == later.second) {
            QList<EventKey> chain{v};
            for (EventKey at = v; !(previous.value(at) == at);) {
                at = previous.value(at);
                chain.prepend(at);
            }
            return chain;
        }
        for (const EventKey& w : successors.value(v)) {
            if (previous.contains(w)) continue;
            previous.insert(w, v);
            queue.push_back(w);
        }
    }
    return {};
}

} // namespace firstrace::gui
