#include "firstrace/report_model.hpp"

#include <algorithm>

#include "report_call_stacks.hpp"
#include "report_held_locks.hpp"
#include "report_ordering_chains.hpp"
#include "report_sites.hpp"

namespace firstrace {
namespace {

std::string site_kind(std::uint8_t flags) {
    std::string kind = (flags & kAccessRead) && (flags & kAccessWrite) ? "read-write"
                       : (flags & kAccessWrite)                        ? "write"
                                                                       : "read";
    return (flags & kAccessAtomic) ? "atomic-" + kind : kind;
}

ReportFrame frame_of(const SourceLocation& loc) {
    return ReportFrame{loc.file, loc.line, loc.column, loc.function};
}

} // namespace

ReportSite make_report_site(const Trace& trace, std::uint32_t s) {
    const AccessSite& site = trace.sites[s];
    ReportSite r;
    r.kind = site_kind(site.flags);
    if (site.location >= trace.locations.size()) return r;
    const std::vector<std::uint32_t> stack = call_stack(trace, site.location, site.context);
    const std::uint32_t headline = headline_location(trace, stack);
    const ReportFrame h = frame_of(trace.locations[headline]);
    r.file = h.file;
    r.line = h.line;
    r.column = h.column;
    r.function = h.function;
    // A stack of the access alone says nothing the headline does not.
    if (stack.size() > 1)
        for (std::uint32_t l : stack)
            r.stack.push_back(frame_of(trace.locations[l]));
    return r;
}

ReportStack make_report_stack(const Trace& trace, std::uint32_t location, std::uint32_t context) {
    ReportStack out;
    if (location >= trace.locations.size() && context >= trace.contexts.size()) return out;
    const std::vector<std::uint32_t> stack = call_stack(trace, location, context);
    const std::uint32_t headline = headline_location(trace, stack);
    if (headline == kNone) return out;
    out.headline = frame_of(trace.locations[headline]);
    if (stack.size() > 1)
        for (std::uint32_t l : stack)
            out.frames.push_back(frame_of(trace.locations[l]));
    return out;
}

std::pair<std::uint32_t, std::uint32_t> event_origin(const Trace& trace, const Event& event) {
    if (event.kind == EventKind::Computation && event.site_count > 0 &&
        event.first_site < trace.sites.size()) {
        const AccessSite& site = trace.sites[event.first_site];
        return {site.location, site.context};
    }
    return {event.location, event.context};
}

ReportEventFacts::ReportEventFacts(const Trace& trace)
    : trace_(trace), names_(trace), locks_(trace), creators_(creation_events(trace)) {}

ReportEventFacts::~ReportEventFacts() = default;

ReportEvent ReportEventFacts::event(const EventRef& ref) const {
    ReportEvent out;
    const Process& p = trace_.processes[ref.process];
    out.thread = p.name;
    out.index = ref.index;
    for (const HeldLock& h : locks_.at(ref.process, ref.index)) {
        const Event& acquire = p.events[h.acquired];
        out.locks.push_back({sync_object_label(trace_, names_, h.object),
                             make_report_stack(trace_, acquire.location, acquire.context)});
    }
    if (p.parent < trace_.processes.size()) {
        const Process& parent = trace_.processes[p.parent];
        out.parent = parent.name;
        const std::uint32_t fork = creators_[ref.process];
        if (fork < parent.events.size())
            out.created = make_report_stack(trace_, parent.events[fork].location,
                                            parent.events[fork].context);
    }
    return out;
}

ReportOrderingStep ReportEventFacts::step(const EventRef& ref, const char* via) const {
    const Event& e = trace_.processes[ref.process].events[ref.index];
    const auto [location, context] = event_origin(trace_, e);
    return {trace_.processes[ref.process].name,
            ref.index,
            via,
            to_string(e.kind),
            event_object_label(trace_, names_, e),
            make_report_stack(trace_, location, context)};
}

ReportModel make_report_model(const Trace& trace, const AnalysisResult& result, bool listed_only) {
    ReportModel model = make_report_header(trace, result);
    model.races.reserve(result.races.size());
    const MemoryNames names(trace);
    const ReportEventFacts facts(trace);
    const OrderingChains chains(trace, result);
    RaceAccessFinder finder(trace);
    for (const Race& race : result.races) {
        ReportRace r;
        r.id = race.id;
        r.a.thread = trace.processes[race.a.process].name;
        r.a.index = race.a.index;
        r.b.thread = trace.processes[race.b.process].name;
        r.b.index = race.b.index;
        r.status = race.status;
        r.tangle = race.tangle;
        r.actual = race.actual;
        r.partition = race.partition;
        if (listed_only && !result.partitions[race.partition].first &&
            race.status == RaceStatus::Unvalidated) {
            model.races.push_back(std::move(r));
            continue;
        }
        r.a = facts.event(race.a);
        r.b = facts.event(race.b);
        if (auto after = chains.of(race.id)) {
            ReportOrderedAfter o;
            o.race = after->race;
            for (const OrderingStep& step : after->chain)
                o.chain.push_back(facts.step(step.event, to_string(step.via)));
            r.ordered_after = std::move(o);
        }
        const RaceAccesses& accesses = finder.of(race);
        for (const Interval& c : accesses.conflicts) {
            if (!trace.variable_names.empty())
                for (std::uint64_t v = c.lo; v < c.hi; ++v)
                    r.variables.push_back(names.name({v, v + 1}));
            else
                r.variables.push_back(names.name(c));
        }
        for (std::uint32_t s : accesses.sites_a)
            r.sites_a.push_back(make_report_site(trace, s));
        for (std::uint32_t s : accesses.sites_b)
            r.sites_b.push_back(make_report_site(trace, s));
        for (const ConflictingSitePair& p : conflicting_site_pairs(trace, accesses))
            r.pairs.push_back({p.a, p.b, shared_variable_name(trace, names, p.shared)});
        model.races.push_back(std::move(r));
    }
    std::vector<std::vector<std::uint32_t>> members = partition_members(result);
    for (const Partition& p : result.partitions)
        model.partitions.push_back({p.id, p.first, std::move(members[p.id]), p.after});
    return model;
}

std::string join_limited(const std::set<std::string>& items, std::size_t limit,
                         const char* ellipsis) {
    std::string out;
    std::size_t n = 0;
    for (const auto& item : items) {
        if (n++ == limit) {
            out += std::string(", ") + ellipsis + " (" + std::to_string(items.size()) + " in all)";
            break;
        }
        out += (out.empty() ? "" : ", ") + item;
    }
    return out;
}

std::string format_location(const ReportSite& site) {
    if (site.file.empty()) return "<unknown>";
    return site.line == 0 ? site.file : site.file + ":" + std::to_string(site.line);
}

ReportModel make_report_header(const Trace& trace, const AnalysisResult& result) {
    ReportModel model;
    model.trace_path = trace.path;
    model.ordering = result.ordering;
    model.truncated = trace.truncated;
    model.counts = result.counts;
    for (const Misuse& m : trace.misuses) {
        ReportMisuse r;
        r.kind = to_string(m.kind);
        r.object = m.object;
        if (m.process < trace.processes.size()) r.thread = trace.processes[m.process].name;
        r.at = make_report_stack(trace, m.location, m.context);
        model.misuses.push_back(std::move(r));
    }
    return model;
}

std::string misuse_text(const ReportMisuse& misuse) {
    const std::string object = misuse.object.substr(0, misuse.object.find('@'));
    const std::string call = object == "barrier" ? "pthread_barrier_" : object + " ";
    if (misuse.kind == "init-with-waiters")
        return call + "init of " + misuse.object + " while threads are blocked on it";
    if (misuse.kind == "destroy-with-waiters")
        return call + "destroy of " + misuse.object + " while threads are blocked on it";
    if (misuse.kind == "free-with-waiters")
        return "memory freed holding " + misuse.object + " while threads are blocked on it";
    return misuse.kind + " of " + misuse.object;
}

} // namespace firstrace
