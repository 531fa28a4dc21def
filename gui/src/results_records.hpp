// The facts the browser shows, as read from the results database (db-schema/SCHEMA.md). These
// are plain values: the views and the report writer never see SQL.
#pragma once

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>

namespace firstrace::gui {

enum class RaceStatus { Feasible, FeasibleEc, Unvalidated };

// "feasible", "feasible-ec", "unvalidated" (the database and JSON spelling).
QString statusName(RaceStatus status);
std::optional<RaceStatus> parseRaceStatus(const QString& name);
// What the status means, for tool tips.
QString statusDescription(RaceStatus status);

struct RunInfo {
    qint64 id = 0;
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

// A partition as listed in the tree. Counts are over the races that match the current filter;
// they are read separately (`counted`), for the rows a view shows.
struct PartitionSummary {
    qint64 id = 0;
    bool first = false;
    qint64 races = 0;
    qint64 feasible = 0;
    qint64 feasibleEc = 0;
    qint64 unvalidated = 0;
    qint64 actual = 0;
    bool counted = false;
};

struct SourceSite {
    QString file; // empty when unknown
    int line = 0;
    int column = 0;
    QString function;
    QString kind; // "read", "write", "read-write", "atomic"...
    // "file.c:12" or "<unknown>".
    QString location() const;
    // The same without the directories: "file.c:12".
    QString shortLocation() const;
};

// "/src/app/file.c:12" -> "file.c:12" (any text: the part after the last '/').
QString withoutDirectories(const QString& location);

// One row of a partition in the tree.
struct RaceSummary {
    qint64 id = 0;
    qint64 partition = 0;
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

struct ContextFrameInfo {
    QString function;
    QString file;
    int line = 0;
};

struct EventDetails {
    qint64 process = 0;
    QString thread;
    qint64 index = 0;
    QString kind; // "computation", "lock", ...
    std::optional<qint64> clockStart;
    std::optional<qint64> clockFinish;
    QList<ContextFrameInfo> context; // innermost frame first
};

struct RaceDetails {
    RaceSummary summary;
    EventDetails a;
    EventDetails b;
    QStringList variables;
    QList<SourceSite> sitesA;
    QList<SourceSite> sitesB;
};

// An event as a point of the execution history: (process, index in process order).
struct EventKey {
    qint64 process = 0;
    qint64 index = 0;
    friend bool operator==(const EventKey&, const EventKey&) = default;
};
inline size_t qHash(const EventKey& key, size_t seed = 0) {
    return qHashMulti(seed, key.process, key.index);
}

struct HistoryEvent {
    EventKey key;
    bool computation = true;
    QString kind;   // "computation", "fork", "acquire", ...
    QString label;  // short text drawn in the box: object name or first site
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
};

// The source text of one file as stored in the database.
struct SourceText {
    QString file;
    QString text;
    bool available = false;
};

} // namespace firstrace::gui
