// The pipeline of DESIGN "Analysis pipeline": G and its timestamps, apparent races, D̂ and Ê
// dependences, validation, ordering; then the result in the output model.
#include "firstrace/analysis.hpp"

#include <algorithm>
#include <bit>
#include <chrono>

#include "dependences.hpp"
#include "firstrace/reused_pages.hpp"
#include "race_ordering.hpp"
#include "resource_usage.hpp"
#include "validation.hpp"

namespace firstrace {

const char* to_string(Ordering ordering) {
    return ordering == Ordering::Approximate ? "approximate" : "complete";
}

const char* to_string(RaceStatus status) {
    switch (status) {
    case RaceStatus::Feasible:
        return "feasible";
    case RaceStatus::FeasibleEc:
        return "feasible-ec";
    case RaceStatus::Unvalidated:
        return "unvalidated";
    }
    return "?";
}

const char* to_string(EdgeKind kind) {
    switch (kind) {
    case EdgeKind::Ordering:
        return "ordering";
    case EdgeKind::SharedData:
        return "shared-data";
    case EdgeKind::EventControl:
        return "event-control";
    }
    return "?";
}

namespace {

class StageClock {
  public:
    explicit StageClock(std::vector<StageStats>& stages) : stages_(stages) {}
    void done(const char* name) {
        const auto now = std::chrono::steady_clock::now();
        stages_.push_back(
            {name, std::chrono::duration<double>(now - last_).count(), peak_rss_bytes()});
        last_ = now;
    }

  private:
    std::vector<StageStats>& stages_;
    std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

} // namespace

AnalysisResult analyze(const Trace& trace, const AnalysisOptions& options) {
    // Large per-race arrays freed by a stage leave their pages to the next one's, until the end.
    const ReusedPages::Scope reused_pages;
    AnalysisResult result;
    result.ordering =
        options.ordering.value_or(trace.has_clock ? Ordering::Complete : Ordering::Approximate);
    const ProgressCallback& progress = options.progress;
    StageClock clock(result.stages);

    const TemporalGraph g(trace);
    // G's CSR form and components are needed only to build the index: freed before the later
    // stages (two words a node and one an edge).
    const GraphReachability ts = [&] {
        const NodeGraph graph = NodeGraph::of(g);
        const Components comps = strong_components(graph);
        return GraphReachability(g, graph, comps, options.timestamp_budget);
    }();
    const EventOrder order(g, ts);
    clock.done("temporal ordering graph");

    UnorderedConflicts conflicts =
        find_apparent_races(g, order, progress, {}, options.atomic_pair_budget);
    const ApparentRaceList& races = conflicts.races;
    clock.done("apparent races");

    Dependences shared_data, event_control;
    RaceBits overlap; // complete mode: per race, its events overlapped in time
    {
        // both kinds' directions of every race found in one pass, then each kind's lists
        const EventClocks clocks(g, result.ordering,
                                 conflicts.races.size() + conflicts.atomic_only.size());
        DirectDependenceLists lists(g, conflicts, clocks);
        shared_data = compute_dependences(g, order, lists, clocks, DependenceKind::SharedData,
                                          options.transitive_budget, progress);
        // Only event control's direct edges are read later (by the ordering): shared data's
        // are freed before event control's search (GLib's mutex test: superset edges of
        // hundreds of MB at that stage's peak).
        std::vector<DependenceEdge>().swap(shared_data.direct);
        event_control = compute_dependences(g, order, lists, clocks, DependenceKind::EventControl,
                                            options.transitive_budget, progress);
        if (result.ordering == Ordering::Complete) overlap = lists.take_overlap();
    }
    conflicts.races.release_flags(); // read by the dependences only
    std::vector<ApparentRace>().swap(conflicts.atomic_only);
    result.approximated_events = static_cast<std::uint64_t>(
        std::count(conflicts.approximated.begin(), conflicts.approximated.end(), true));
    std::vector<bool>().swap(conflicts.approximated);
    result.transitive_origins = shared_data.origins + event_control.origins;
    result.transitive_fallbacks = shared_data.fallback_origins + event_control.fallback_origins;
    clock.done("dependences");

    ValidationOutcome validation =
        validate_races(g, races, shared_data, event_control, progress, options.timestamp_budget);
    clock.done("validation");

    OrderingOutcome ordering = order_races(g, races, event_control.direct, progress);
    // The direct lists were read by the ordering only.
    std::vector<DependenceEdge>().swap(event_control.direct);
    clock.done("ordering");

    // The result, in the output model (firstrace/race_list.hpp): the sweep's a and b columns
    // (apparent_race_list.hpp) and the stages' statuses, tangles and partitions are moved in;
    // nothing is new per race but, in the complete mode, the overlap byte, on the pages the
    // dependence lists left (reused_pages.hpp). The 36-byte records these replace were, on
    // fork/join waves at 1.4·10^6 lines (2.3·10^8 races), 8 GB of fresh memory.
    AnalysisCounts& c = result.counts;
    {
        RaceList::Columns columns;
        columns.events.reserve(g.event_count());
        for (const EventId e : g.events())
            columns.events.push_back(g.event_ref(e));
        if (result.ordering == Ordering::Complete) {
            columns.actual.resize_for_overwrite(races.size()); // every race's written below
            const PageArray<std::uint64_t>& words = overlap.words();
            for (std::size_t k = 0; k < words.size(); ++k) {
                const std::size_t first = k * 64,
                                  n = std::min<std::size_t>(64, races.size() - first);
                for (std::size_t j = 0; j < n; ++j)
                    columns.actual[first + j] =
                        static_cast<std::uint8_t>(1 + ((words[k] >> j) & 1));
                c.actual += static_cast<std::uint64_t>(std::popcount(words[k])); // none past n
            }
            overlap = RaceBits();
        }
        conflicts.races.move_columns_to(columns.a_begin, columns.a_event, columns.b_event);
        for (const RaceStatus status : validation.status) {
            c.feasible += status == RaceStatus::Feasible;
            c.feasible_ec += status == RaceStatus::FeasibleEc;
            c.unvalidated += status == RaceStatus::Unvalidated;
        }
        columns.status = std::move(validation.status);
        columns.tangle = std::move(validation.tangle);
        columns.partition = std::move(ordering.partition_of_race);
        result.races = RaceList(std::move(columns));
    }
    result.partitions = std::move(ordering.partitions);
    // The edges, sized exactly (grown by doubling, the list held up to twice its size and, while
    // it grew, the old array beside the new one), each source freed once copied: on GLib's
    // mutex stress (1.6·10^7 events) the dependences' edge lists were tens of millions of edges
    // (DESIGN-NOTES "Analysis memory on dense real traces").
    {
        std::vector<std::pair<EventId, EventId>> sync = g.sync_event_edges();
        result.edges.reserve(sync.size() + shared_data.all.size() + event_control.all.size());
        for (const auto& [from, to] : sync)
            result.edges.push_back({EdgeKind::Ordering, g.event_ref(from), g.event_ref(to), false});
        std::vector<std::pair<EventId, EventId>>().swap(sync);
        for (const auto& e : shared_data.all)
            result.edges.push_back(
                {EdgeKind::SharedData, g.event_ref(e.from), g.event_ref(e.to), e.transitive});
        std::vector<DependenceEdge>().swap(shared_data.all);
        for (const auto& e : event_control.all)
            result.edges.push_back(
                {EdgeKind::EventControl, g.event_ref(e.from), g.event_ref(e.to), e.transitive});
        std::vector<DependenceEdge>().swap(event_control.all);
    }

    c.events = g.event_count();
    for (const EventId e : g.events())
        c.computation_events += g.is_computation(e) ? 1 : 0;
    c.accesses = trace.access_count();
    c.processes = g.process_count();
    c.apparent = result.races.size();
    c.tangles = validation.tangle_count;
    c.partitions = result.partitions.size();
    for (const Partition& p : result.partitions)
        c.first_partitions += p.first ? 1 : 0;
    clock.done("results");
    return result;
}

} // namespace firstrace
