// Why a race sits in a later partition, as the history can show it: a chain of events from an
// event of the race it is ordered after to an event of the race itself. Data-race ordering
// (thesis Def 8.1) puts <a,b> before <c,d> when a and b both reach c (or d) in G_E — process
// order, synchronization and event-control dependence edges; a path through the events shown
// witnesses that reach.
#pragma once

#include <QList>

#include <utility>

#include "results_records.hpp"

namespace firstrace::gui {

// The shortest path (in events) over process order, synchronization and event-control edges
// of `history` from either event of `earlier` to either event of `later`, both ends included;
// empty when the events shown hold none.
QList<EventKey> orderChain(const HistoryData& history, const std::pair<EventKey, EventKey>& earlier,
                           const std::pair<EventKey, EventKey>& later);

} // namespace firstrace::gui
