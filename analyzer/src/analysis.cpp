// The pipeline of DESIGN "Analysis pipeline": G and its timestamps, apparent races, D̂ and Ê
// dependences, validation, ordering; then the result in the output model.
#include "firstrace/analysis.hpp"

#include <algorithm>
#include <chrono>

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

// Fills sites_a / sites_b of every race: the sites (plain or atomic) of each event whose ranges
// overlap the race's conflicts. Events are visited once each, their ranges sorted by start with
// the running maximum of their ends, so that lookups are binary searches even in events with
// thousands of sites, and only one event's index is alive at a time.
void fill_conflicting_sites(const TemporalGraph& g, std::vector<Race>& races) {
    const Trace& trace = g.trace();
    struct Request {
        EventId event;
        std::uint32_t race;
        bool side_b;
    };
    std::vector<Request> requests;
    requests.reserve(races.size() * 2);
    for (std::uint32_t i = 0; i < races.size(); ++i) {
        requests.push_back({g.event_id(races[i].a), i, false});
        requests.push_back({g.event_id(races[i].b), i, true});
    }
    std::sort(requests.begin(), requests.end(), [](const Request& x, const Request& y) {
        return x.event != y.event ? x.event < y.event : x.race < y.race;
    });
    struct Entry {
        std::uint64_t lo, hi, max_hi;
        std::uint32_t site;
    };
    std::vector<Entry> entries;
    for (std::size_t i = 0; i < requests.size();) {
        const EventId id = requests[i].event;
        const Event& e = g.event(id);
        entries.clear();
        trace.for_each_data_range(e,
                                  [&](std::uint32_t s, const AccessSite&, const Interval& range) {
                                      entries.push_back({range.lo, range.hi, 0, s});
                                  });
        std::sort(entries.begin(), entries.end(),
                  [](const Entry& x, const Entry& y) { return x.lo < y.lo; });
        std::uint64_t max_hi = 0;
        for (auto& entry : entries)
            entry.max_hi = max_hi = std::max(max_hi, entry.hi);
        for (; i < requests.size() && requests[i].event == id; ++i) {
            Race& race = races[requests[i].race];
            std::vector<std::uint32_t>& out = requests[i].side_b ? race.sites_b : race.sites_a;
            for (const Interval& c : race.conflicts) {
                // Entries before the first whose running maximum end passes c.lo cannot overlap.
                auto k = std::partition_point(entries.begin(), entries.end(),
                                              [&](const Entry& x) { return x.max_hi <= c.lo; });
                for (; k != entries.end() && k->lo < c.hi; ++k)
                    if (k->hi > c.lo) out.push_back(k->site);
            }
            std::sort(out.begin(), out.end());
            out.erase(std::unique(out.begin(), out.end()), out.end());
        }
    }
}

} // namespace

AnalysisResult analyze(const Trace& trace, const AnalysisOptions& options) {
    AnalysisResult result;
    result.ordering =
        options.ordering.value_or(trace.has_clock ? Ordering::Complete : Ordering::Approximate);
    const ProgressCallback& progress = options.progress;
    StageClock clock(result.stages);

    const TemporalGraph g(trace);
    const NodeGraph graph = NodeGraph::from_edges(g.node_count(), g.edges());
    const Components comps = strong_components(graph);
    const GraphReachability ts(g, graph, comps, options.timestamp_budget);
    const EventOrder order(g, ts);
    clock.done("temporal ordering graph");

    const UnorderedConflicts conflicts = find_apparent_races(g, order, progress);
    const std::vector<ApparentRace>& races = conflicts.races;
    clock.done("apparent races");

    const Dependences shared_data =
        compute_dependences(g, order, conflicts, DependenceKind::SharedData, result.ordering,
                            options.transitive_budget, progress);
    const Dependences event_control =
        compute_dependences(g, order, conflicts, DependenceKind::EventControl, result.ordering,
                            options.transitive_budget, progress);
    result.transitive_origins = shared_data.origins + event_control.origins;
    result.transitive_fallbacks = shared_data.fallback_origins + event_control.fallback_origins;
    clock.done("dependences");

    const ValidationOutcome validation =
        validate_races(g, races, shared_data, event_control, progress, options.timestamp_budget);
    clock.done("validation");

    const OrderingOutcome ordering = order_races(g, races, event_control.direct, progress);
    clock.done("ordering");

    // The result, in the output model.
    result.races.resize(races.size());
    for (std::uint32_t i = 0; i < races.size(); ++i) {
        const ApparentRace& in = races[i];
        Race& race = result.races[i];
        race.id = i;
        race.a = g.event_ref(in.a);
        race.b = g.event_ref(in.b);
        race.status = validation.status[i];
        race.tangle = validation.tangle[i];
        if (result.ordering == Ordering::Complete) {
            const Event& a = g.event(in.a);
            const Event& b = g.event(in.b);
            race.actual = !(a.clock_finish < b.clock_start) && !(b.clock_finish < a.clock_start);
        }
        race.partition = ordering.partition_of_race[i];
        race.conflicts = conflicts.conflicts(in);
    }
    fill_conflicting_sites(g, result.races);
    result.partitions = ordering.partitions;
    for (const auto& [from, to] : g.sync_event_edges())
        result.edges.push_back({EdgeKind::Ordering, g.event_ref(from), g.event_ref(to), false});
    for (const auto& e : shared_data.all)
        result.edges.push_back(
            {EdgeKind::SharedData, g.event_ref(e.from), g.event_ref(e.to), e.transitive});
    for (const auto& e : event_control.all)
        result.edges.push_back(
            {EdgeKind::EventControl, g.event_ref(e.from), g.event_ref(e.to), e.transitive});

    AnalysisCounts& c = result.counts;
    c.events = g.event_count();
    for (const EventId e : g.events())
        c.computation_events += g.is_computation(e) ? 1 : 0;
    c.accesses = trace.access_count();
    c.processes = g.process_count();
    c.apparent = result.races.size();
    for (const Race& race : result.races) {
        c.actual += race.actual.value_or(false) ? 1 : 0;
        c.feasible += race.status == RaceStatus::Feasible;
        c.feasible_ec += race.status == RaceStatus::FeasibleEc;
        c.unvalidated += race.status == RaceStatus::Unvalidated;
    }
    c.tangles = validation.tangle_count;
    c.partitions = result.partitions.size();
    for (const Partition& p : result.partitions)
        c.first_partitions += p.first ? 1 : 0;
    clock.done("results");
    return result;
}

} // namespace firstrace
