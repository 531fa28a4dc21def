// The queries of an interactive browser of a results database (firstrace-gui, issue 15): the
// race sites of a run in the browser's order, paged by keyset (the key of the last row shown,
// LIMIT n) so that a run of 10^6 races is read a screenful at a time; the races of a site; the
// details of one race (stacks, memory, locks, threads, what it is ordered after); the part of
// the execution history around it. Read-only; no Qt: every front end can use it. All SQL of
// the browser lives in results_database_browser_queries.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "firstrace/analysis_result.hpp"
#include "firstrace/results_database.hpp"

namespace firstrace::browser {

// What the race-site list shows: races by status, by headline file, by thread and by a search
// text. An empty filter shows everything.
struct RaceFilter {
    std::vector<RaceStatus> statuses; // empty: every status
    bool actual_only = false;
    std::string file;   // a race of a race site with a headline location in this file
    std::string thread; // a race with an event of this process (processes.name)
    // "#12": race 12; otherwise part of a variable or thread name, or of the file, "file:line"
    // or function of a race site's headline locations ("12" also finds race 12). Leading and
    // trailing blanks are ignored.
    std::string search;
    bool empty() const;
    friend bool operator==(const RaceFilter&, const RaceFilter&) = default;
};

// Races per status (of a race site, a filter, a run).
struct StatusCounts {
    std::int64_t races = 0;
    std::int64_t feasible = 0;
    std::int64_t feasible_ec = 0;
    std::int64_t unvalidated = 0;
    std::int64_t actual = 0;
};

// Where a race sits in the browser's order: races of first partitions, then validated races
// of later partitions, then the rest (issue 15). A race site takes the group of its earliest
// race.
enum class RaceGroup { FirstPartition = 0, Validated = 1, Other = 2 };

// Key of a race in the browser's order (within a site and across sites): group, status
// (feasible, feasible-ec, unvalidated), partition, race id. The default key is before every
// race.
struct RaceOrderKey {
    int group = 0;  // RaceGroup
    int status = 0; // RaceStatus
    std::int64_t partition = -1;
    std::int64_t race = -1;
};

// Where a scan of race sites stands: the sites are listed in the order of their earliest race,
// so the scan walks the races in that order and lists each site at the first race that is an
// instance of it.
struct RaceSiteCursor {
    int pass = 0;                // index into the (group, status) passes
    std::int64_t partition = -1; // last race scanned in this pass
    std::int64_t race = -1;
    bool done = false;
    std::unordered_set<std::int64_t> listed; // site pairs already listed
};

// An event as a point of the execution history: (process, index in process order).
struct EventKey {
    std::int64_t process = 0;
    std::int64_t index = 0;
    friend bool operator==(const EventKey&, const EventKey&) = default;
};

// One frame of a call stack, or a headline location of a race site.
struct Frame {
    std::string file; // empty when unknown
    int line = 0;
    int column = 0;
    std::string function;
};

// A race site (site_pairs): the unordered pair of headline locations of race site instances.
struct RaceSite {
    std::int64_t pair_id = 0;
    std::string key; // site_pairs.site_key
    Frame first;
    Frame second;
    RaceGroup group = RaceGroup::Other;
    std::int64_t lead_race = 0; // the earliest race of the site in the browser's order
    std::int64_t lead_partition = 0;
    std::string variable; // what the lead race's two sites share
};

// One race as a row of a list.
struct RaceSummary {
    std::int64_t id = 0;
    std::int64_t partition = 0;
    bool first_partition = false;
    RaceStatus status = RaceStatus::Feasible;
    std::optional<std::int64_t> tangle;
    std::optional<bool> actual;
    std::string thread_a;
    std::int64_t index_a = 0;
    std::string thread_b;
    std::int64_t index_b = 0;
    std::string location_a; // first access site of each side, "file.c:12" or "<unknown>"
    std::string location_b;
    std::vector<std::string> variables; // the first conflicting variables or byte ranges
    std::int64_t variable_count = 0;    // all of them
};

RaceGroup group_of(const RaceSummary& race);
RaceOrderKey order_key_of(const RaceSummary& race);

// An access site of one side of a race: the access itself and its call stack.
struct AccessSite {
    Frame access;
    std::string kind;         // "read", "write", "atomic-read-write", ...
    std::vector<Frame> stack; // innermost frame (the access) first; empty: not recorded
};

// A lock held during an event and where the thread acquired it (empty: not stored).
struct HeldLock {
    std::string name; // "mutex pool_lock", "mutex@0x7f..", STD "L1"
    std::vector<Frame> acquired;
};

// A heap block holding a conflicting address.
struct HeapBlock {
    std::int64_t lo = 0;
    std::int64_t hi = 0;
    std::string thread; // allocating thread, empty when unknown
    std::vector<Frame> allocation_stack;
};

struct EventDetails {
    std::int64_t process = 0;
    std::string thread;
    std::int64_t index = 0;
    std::string kind; // "computation", "acquire", ...
    std::optional<std::int64_t> clock_start;
    std::optional<std::int64_t> clock_finish;
    std::vector<Frame> context;          // the event's calling context, innermost frame first
    std::vector<HeldLock> locks_held;    // locks held during the event
    std::string parent_thread;           // the creating thread, empty when unknown
    std::vector<Frame> creation_stack;   // where the thread was created (when known)
};

// What a race of a later partition is ordered after (thesis Def 8.1: R̂ orders the races of
// partitions): the partitions directly before its own and one race it is ordered after, with
// the chain of events that orders the two when the database stores it.
struct OrderingStep {
    EventKey event;
    std::string thread;
    std::string via;    // "start", "program-order", "synchronization", "event-control"
    std::string kind;   // the event's kind
    std::string object; // what it synchronizes on, "" if nothing
    std::vector<Frame> at;
};
struct OrderedAfter {
    std::vector<std::int64_t> partitions;
    std::optional<std::int64_t> race;
    // The stored chain (schema version 3): a path from each event of `race` to one event of the
    // later race, each beginning with a "start" step.
    std::vector<OrderingStep> chain;
    bool stored = false; // race and chain as the analysis named them (not a stand-in)
};

struct RaceDetails {
    RaceSummary summary;
    EventDetails a;
    EventDetails b;
    std::vector<std::string> variables; // all conflicting variables or byte ranges
    std::string memory;                 // what the racing accesses share, as the analysis names it
    std::optional<HeapBlock> heap_block;
    std::vector<AccessSite> sites_a;
    std::vector<AccessSite> sites_b;
    OrderedAfter ordered_after;
};

// An access site of a computation event in the history: "file.c:12" and its kind.
struct HistoryAccess {
    std::string location;
    std::string kind;
};

struct HistoryEvent {
    EventKey key;
    std::string kind;     // "computation", "fork", "acquire", ...
    std::string object;   // synchronization object or forked/joined thread, empty if none
    std::string location; // synchronization events: "file.c:12" of the call, empty if unknown
    std::optional<std::int64_t> clock_start;
    std::optional<std::int64_t> clock_finish;
    std::vector<HistoryAccess> accesses; // computation events, in site order
};

enum class HistoryEdgeKind { Synchronization, SharedData, EventControl };

struct HistoryEdge {
    HistoryEdgeKind kind = HistoryEdgeKind::Synchronization;
    EventKey from;
    EventKey to;
    bool transitive = false;
};

struct HistoryRace {
    std::int64_t id = 0;
    EventKey a;
    EventKey b;
    RaceStatus status = RaceStatus::Feasible;
    std::optional<std::int64_t> tangle;
};

struct HistoryLane {
    std::int64_t process = 0;
    std::string name;
    std::int64_t first_index = 0; // the window of events shown
    std::int64_t last_index = 0;
    std::int64_t event_count = 0; // all events of the process
};

// The part of the execution history around one race.
struct History {
    std::int64_t focus_race = -1;
    std::optional<std::int64_t> focus_tangle;
    std::vector<HistoryLane> lanes;   // by process id
    std::vector<HistoryEvent> events; // by (process, index)
    std::vector<HistoryEdge> edges;   // both ends shown
    std::vector<HistoryRace> races;   // both events shown; the focus race always
    // The race the focus race is ordered after and its two events, when asked for.
    std::optional<std::int64_t> ordered_after_race;
    std::optional<std::pair<EventKey, EventKey>> ordered_after_events;
    // The stored chain of events ordering the focus race after that one (empty: none stored).
    std::vector<EventKey> ordered_after_chain;
    std::pair<EventKey, EventKey> focus_events;
};

class ResultsBrowser {
  public:
    // OutOfMemory: opening (an older schema is migrated in memory) needed more memory than the
    // process may allocate.
    enum class OpenError { None, Missing, Unreadable, Corrupt, Foreign, TooNew, OutOfMemory };
    struct OpenResult {
        std::unique_ptr<ResultsBrowser> browser;
        OpenError error = OpenError::None;
        std::string message; // one or two sentences for a message box, naming the file
    };
    // Never throws, never creates or modifies the file. Older schema versions are brought
    // forward in memory (ResultsDatabase).
    static OpenResult open(const std::string& path);

    ~ResultsBrowser();
    ResultsBrowser(const ResultsBrowser&) = delete;
    ResultsBrowser& operator=(const ResultsBrowser&) = delete;

    // Every query below throws InputError naming the file when it turns out damaged.
    const std::string& path() const;
    std::vector<RunSummary> runs() const;
    std::vector<std::string> thread_names(std::int64_t run) const;
    // The files of headline locations of race sites (the file filter's choices), sorted.
    std::vector<std::string> race_files(std::int64_t run) const;
    // Races of the run per status under `filter`, ignoring its statuses (what each status
    // toggle would add).
    StatusCounts status_counts(std::int64_t run, const RaceFilter& filter) const;

    // The next race sites with a race that matches `filter`, continuing `cursor`: at least
    // `limit` unless the scan ends.
    std::vector<RaceSite> race_sites(std::int64_t run, const RaceFilter& filter,
                                     RaceSiteCursor& cursor, int limit) const;
    // Race site `pair` as a row led by race `lead_race`.
    RaceSite race_site(std::int64_t run, std::int64_t pair, std::int64_t lead_race,
                       std::int64_t lead_partition, RaceGroup group) const;
    // Matching races per status of each race site in `pairs`.
    std::vector<StatusCounts> site_race_counts(std::int64_t run, const RaceFilter& filter,
                                               const std::vector<std::int64_t>& pairs) const;
    // Matching races of race site `pair` in the browser's order after `after`.
    std::vector<RaceSummary> site_races(std::int64_t run, std::int64_t pair,
                                        const RaceFilter& filter, const RaceOrderKey& after,
                                        int limit) const;
    // The race sites race `id` is an instance of, in instance order.
    std::vector<std::int64_t> pairs_of_race(std::int64_t run, std::int64_t id) const;
    std::optional<RaceSummary> race(std::int64_t run, std::int64_t id) const;
    bool race_matches(std::int64_t run, std::int64_t id, const RaceFilter& filter) const;
    std::optional<RaceDetails> race_details(std::int64_t run, std::int64_t id) const;
    // The stored text of a source file named by the run's locations, if it was readable.
    std::optional<std::string> source_text(std::int64_t run, const std::string& file) const;
    // The events before and around race `id`: the two racing processes `before` events back
    // and `after` ahead, the processes they synchronize with, or the whole run when it is
    // small; with `ordered_after`, the events of that race too.
    History history(std::int64_t run, std::int64_t id, int before = 6, int after = 3,
                    std::optional<std::int64_t> ordered_after = std::nullopt) const;

  private:
    struct State;
    explicit ResultsBrowser(std::unique_ptr<State> state);
    std::unique_ptr<State> state_;
};

} // namespace firstrace::browser
