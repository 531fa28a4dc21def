// The facts the browser shows, as the store's browser queries read them from the results
// database (firstrace/results_browser.hpp), in Qt's types for the models and views.
#pragma once

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

#include "firstrace/analysis_result.hpp"
#include "firstrace/results_browser.hpp"

namespace firstrace::gui {

// The analysis' status of a race (one enum and one spelling for every front end: the
// analyzer's, firstrace/analysis_result.hpp).
using RaceStatus = firstrace::RaceStatus;
inline constexpr RaceStatus kRaceStatuses[] = {RaceStatus::Feasible, RaceStatus::FeasibleEc,
                                               RaceStatus::Unvalidated};

// "feasible", "feasible-ec", "unvalidated" (firstrace::to_string: the database and JSON spelling).
QString statusName(RaceStatus status);
std::optional<RaceStatus> parseRaceStatus(const QString& name);
// What the status means, for tool tips.
QString statusDescription(RaceStatus status);

// One analysed execution as the `runs` table stores it.
struct StoredRun {
    qint64 id = 0;
    QString program; // empty when the trace does not record it
    QString tracePath;
    QString traceFormat;
    QString ordering; // "approximate" or "complete"
    QString createdAt;
    QString toolVersion;
    bool truncated = false;
    qint64 events = 0;
    qint64 processes = 0;
    qint64 races = 0;
    qint64 feasible = 0;
    qint64 feasibleEc = 0;
    qint64 unvalidated = 0;
    qint64 actual = 0;
    qint64 tangles = 0;
    qint64 partitions = 0;
    qint64 firstPartitions = 0;
};

// Races per status (of a race site, a filter, a run).
struct StatusCounts {
    qint64 races = 0;
    qint64 feasible = 0;
    qint64 feasibleEc = 0;
    qint64 unvalidated = 0;
    qint64 actual = 0;
    qint64 of(RaceStatus status) const {
        return status == RaceStatus::Feasible     ? feasible
               : status == RaceStatus::FeasibleEc ? feasibleEc
                                                  : unvalidated;
    }
};

// Where a race sits in the browser's order (issue 15): races of first partitions, then
// validated races of later partitions, then the rest; and the key of that order.
using RaceGroup = firstrace::browser::RaceGroup;
using RaceOrderKey = firstrace::browser::RaceOrderKey;

// An event as a point of the execution history: (process, index in process order).
struct EventKey {
    qint64 process = 0;
    qint64 index = 0;
    friend bool operator==(const EventKey&, const EventKey&) = default;
};
inline size_t qHash(const EventKey& key, size_t seed = 0) {
    return qHashMulti(seed, key.process, key.index);
}

// A source location: one frame of a call stack, or a headline location of a race site.
struct SourceLocation {
    QString file; // empty when unknown
    int line = 0;
    int column = 0;
    QString function;
    // "file.c:12" or "<unknown>".
    QString location() const;
    // The same without the directories: "file.c:12".
    QString shortLocation() const;
};

// "/src/app/file.c:12" -> "file.c:12" (any text: the part after the last '/').
QString withoutDirectories(const QString& location);

// A race site (site_pairs): the unordered pair of headline locations of a race site instance,
// with its races counted under the current filter.
struct RaceSiteRow {
    qint64 pairId = 0;
    QString key; // site_pairs.site_key
    SourceLocation first;
    SourceLocation second;
    RaceGroup group = RaceGroup::Other;
    qint64 leadRace = 0; // the earliest race of the site in the browser's order
    qint64 leadPartition = 0;
    QString variable; // what the lead race's accesses share
    StatusCounts counts;
    bool counted = false;
};

// One row of a race site in the tree.
struct RaceSummary {
    qint64 id = 0;
    RaceOrderKey orderKey; // where it sits in the browser's order
    qint64 partition = 0;
    bool firstPartition = false;
    RaceStatus status = RaceStatus::Feasible;
    std::optional<qint64> tangle;
    std::optional<bool> actual;
    QString threadA;
    qint64 indexA = 0;
    QString threadB;
    qint64 indexB = 0;
    QString locationA; // first access site of each side, "file.c:12"
    QString locationB;
    QString variables; // the conflicting variables or ranges, comma separated
};

// An access site of one side of a race: the access itself and its call stack.
struct AccessSite {
    SourceLocation access;
    QString kind;                // "read", "write", "atomic-read-write", ...
    QList<SourceLocation> stack; // innermost frame (the access) first; empty: not recorded
};

// A heap block holding a conflicting address (schema version 2).
struct HeapBlockInfo {
    qint64 lo = 0;
    qint64 hi = 0;
    QString thread; // allocating thread, empty when unknown
    QList<SourceLocation> allocationStack;
};

struct EventDetails {
    qint64 process = 0;
    QString thread;
    qint64 index = 0;
    QString kind; // "computation", "acquire", ...
    std::optional<qint64> clockStart;
    std::optional<qint64> clockFinish;
    QList<SourceLocation> context;             // the event's calling context, innermost frame first
    QStringList locksHeld;                     // locks held during the event (when stored)
    QList<QList<SourceLocation>> lockAcquired; // where each of them was acquired (may be empty)
    QString parentThread;                      // the creating thread, empty when unknown
    QList<SourceLocation> creationStack;       // where the thread was created (when stored)
};

// What a race of a later partition is ordered after (thesis Def 8.1: R̂ orders the races of
// partitions): the partitions directly before its own and, when the database stores it, one
// race it is ordered after and the chain of events that orders it.
struct OrderedAfter {
    QList<qint64> partitions; // partitions directly before the race's partition
    std::optional<qint64> race;
    QList<EventKey> chain;
    bool stored = false; // race and chain as the analysis named them (not a stand-in)
    // The stored chain as text, one step a line: "T1 #4 release mutex m (synchronization) at
    // thread-pool-racy.cpp:40".
    QStringList steps;
};

struct RaceDetails {
    RaceSummary summary;
    EventDetails a;
    EventDetails b;
    QStringList variables; // the conflicting variables or byte ranges
    QString memory;        // what the racing accesses share, as the analysis names it
    std::optional<HeapBlockInfo> heapBlock;
    QList<AccessSite> sitesA;
    QList<AccessSite> sitesB;
    OrderedAfter orderedAfter;
};

struct HistoryEvent {
    EventKey key;
    bool computation = true;
    QString kind;   // "computation", "fork", "acquire", ...
    QString label;  // text drawn in the box: object name or access lines
    QString detail; // tool tip / click text
    std::optional<qint64> clockStart;
    std::optional<qint64> clockFinish;
};

enum class HistoryEdgeKind { Synchronization, SharedData, EventControl };

struct HistoryEdge {
    HistoryEdgeKind kind = HistoryEdgeKind::Synchronization;
    EventKey from;
    EventKey to;
    bool transitive = false;
};

struct HistoryRace {
    qint64 id = 0;
    EventKey a;
    EventKey b;
    RaceStatus status = RaceStatus::Feasible;
    std::optional<qint64> tangle;
};

struct HistoryLane {
    qint64 process = 0;
    QString name;
    qint64 firstIndex = 0; // the window of events shown
    qint64 lastIndex = 0;
    qint64 eventCount = 0; // all events of the process
};

// The part of the execution history around one race.
struct HistoryData {
    qint64 focusRace = -1;
    std::optional<qint64> focusTangle;
    QList<HistoryLane> lanes;
    QList<HistoryEvent> events;
    QList<HistoryEdge> edges;
    QList<HistoryRace> races; // all races whose two events are both shown
    // The race the focus race is ordered after and the chain of events between them, when
    // both are shown.
    std::optional<qint64> orderedAfterRace;
    QList<EventKey> orderChain;
    bool hasClock() const;
};

// The source text of one file as stored in the database.
struct SourceText {
    QString file;
    QString text;
    bool available = false;
};

} // namespace firstrace::gui
