#include "apparent_races.hpp"

#include <algorithm>
#include <tuple>

#include "conflict_rule.hpp"

namespace firstrace {
namespace {

// One event touching one elementary address segment. Events are numbered by their rank in the
// timestamp slot chains (slot by slot, in chain order): the events of one slot are totally
// ordered in G, so races are only looked for between slots, whose number is that of processes
// live at once even when processes are many.
struct Incidence {
    std::uint32_t segment;
    std::uint32_t rank;
    std::uint8_t access; // SegmentAccess
};

// The unordered events of another process for the current event: candidates [first, last).
struct Window {
    std::size_t first = 0;
    std::size_t last = 0;
};

// A conflict of an event pair found on some segment (12 bytes). Pairs conflict on many
// segments when their events touch many variables; only the pair and the OR of its flags
// matter (what it races on is recomputed per race, race_accesses.hpp).
struct ConflictHit {
    EventId a;
    EventId b;
    std::uint8_t flags; // bit 0: a writes / b reads, bit 1: b writes / a reads, bit 2: data race
};

// Sorts hits by pair and merges those of one pair (their flags OR-ed).
void merge_pairs(std::vector<ConflictHit>& hits) {
    std::sort(hits.begin(), hits.end(), [](const ConflictHit& x, const ConflictHit& y) {
        return std::tie(x.a, x.b) < std::tie(y.a, y.b);
    });
    std::size_t out = 0;
    for (std::size_t i = 0; i < hits.size(); ++i) {
        if (out > 0 && hits[out - 1].a == hits[i].a && hits[out - 1].b == hits[i].b)
            hits[out - 1].flags |= hits[i].flags;
        else
            hits[out++] = hits[i];
    }
    hits.resize(out);
}

} // namespace

UnorderedConflicts find_apparent_races(const TemporalGraph& g, const EventOrder& order,
                                       const ProgressCallback& progress) {
    const Trace& trace = g.trace();
    // Elementary segments: the address line cut at every interval end point, and at the
    // borders of private storage so that a segment is private to two processes entirely or
    // not at all.
    // Sized exactly before they are filled: grown by doubling, the two largest arrays of the
    // sweep (10^7 entries for 10^6 tasks) held three times their size while reallocating, the
    // peak of the whole analysis.
    std::size_t data_ranges = 0;
    for (const EventId e : g.events())
        if (g.event(e).kind == EventKind::Computation)
            trace.for_each_data_range(g.event(e), [&](std::uint32_t, const AccessSite&,
                                                      const Interval&) { ++data_ranges; });
    std::vector<std::uint64_t> bounds;
    bounds.reserve(2 * data_ranges + 4 * trace.os_threads.size() + trace.processes.size());
    for (const EventId e : g.events()) {
        const Event& ev = g.event(e);
        if (ev.kind != EventKind::Computation) continue;
        trace.for_each_data_range(ev, [&](std::uint32_t, const AccessSite&, const Interval& range) {
            bounds.push_back(range.lo);
            bounds.push_back(range.hi);
        });
    }
    if (!bounds.empty()) {
        for (const OsThread& t : trace.os_threads)
            for (std::uint64_t b : {t.stack.lo, t.stack.hi, t.tls.lo, t.tls.hi})
                bounds.push_back(b);
        for (const Process& p : trace.processes)
            if (p.os_thread != kNone) bounds.push_back(p.private_below);
    }
    std::sort(bounds.begin(), bounds.end());
    bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
    auto segment_of = [&](std::uint64_t address) {
        return static_cast<std::uint32_t>(std::lower_bound(bounds.begin(), bounds.end(), address) -
                                          bounds.begin());
    };

    std::vector<EventId> event_of_rank;
    event_of_rank.reserve(g.event_count());
    for (const SlotId s : g.slots())
        event_of_rank.insert(event_of_rank.end(), g.slot_events(s).begin(), g.slot_events(s).end());
    std::vector<Incidence> incidences;
    incidences.reserve(data_ranges); // a range covers one segment or more
    for (std::uint32_t rank = 0; rank < event_of_rank.size(); ++rank) {
        const Event& ev = g.event(event_of_rank[rank]);
        if (ev.kind != EventKind::Computation) continue;
        trace.for_each_data_range(
            ev, [&](std::uint32_t, const AccessSite& site, const Interval& range) {
                const std::uint8_t access = segment_access(site.flags);
                const std::uint32_t last = segment_of(range.hi);
                for (std::uint32_t seg = segment_of(range.lo); seg < last; ++seg)
                    incidences.push_back({seg, rank, access});
            });
    }
    std::sort(incidences.begin(), incidences.end(), [](const Incidence& x, const Incidence& y) {
        return std::tie(x.segment, x.rank) < std::tie(y.segment, y.rank);
    });
    // Merge the accesses of one event on one segment.
    std::size_t out = 0;
    for (std::size_t i = 0; i < incidences.size(); ++i) {
        if (out > 0 && incidences[out - 1].segment == incidences[i].segment &&
            incidences[out - 1].rank == incidences[i].rank)
            incidences[out - 1].access |= incidences[i].access;
        else
            incidences[out++] = incidences[i];
    }
    incidences.resize(out);

    std::vector<ConflictHit> hits;
    // The hits are merged by pair whenever they have doubled since the last merge: memory
    // follows the distinct pairs (the races), not the (pair, segment) conflicts, which are
    // many times more on fork/join waves (issue 14).
    std::size_t merge_at = std::size_t(1) << 20;
    const std::uint32_t slots = g.slot_count();
    // Per slot: the accessors and the writers of the current segment.
    IdVector<SlotId, std::vector<const Incidence*>> all(slots), writers(slots);
    std::vector<SlotId> present;
    std::vector<std::size_t> writing; // indices into present
    for (std::size_t i = 0; i < incidences.size();) {
        std::size_t j = i;
        while (j < incidences.size() && incidences[j].segment == incidences[i].segment)
            ++j;
        if (progress && (i & 0xffff) == 0)
            progress("apparent races", double(i) / double(incidences.size()));
        for (const SlotId q : present) {
            all[q].clear();
            writers[q].clear();
        }
        present.clear();
        for (std::size_t k = i; k < j; ++k) {
            const SlotId q = g.event_slot(event_of_rank[incidences[k].rank]);
            if (all[q].empty()) present.push_back(q);
            all[q].push_back(&incidences[k]);
            if (incidences[k].access & kAnyWrite) writers[q].push_back(&incidences[k]);
        }
        const std::uint32_t segment = incidences[i].segment;
        const Interval segment_range{bounds[segment], bounds[segment + 1]};
        // Two slots conflict on the segment only if one of them writes it: pairs with a
        // writing slot only, so that a variable read by many tasks and written by few costs
        // readers x writers, not the square of the readers.
        writing.clear();
        for (std::size_t pi = 0; pi < present.size(); ++pi)
            if (!writers[present[pi]].empty()) writing.push_back(pi);
        auto for_each_pair = [&](auto&& scan) {
            for (std::size_t pi = 0; pi < present.size(); ++pi) {
                if (!writers[present[pi]].empty()) {
                    for (std::size_t qi = pi + 1; qi < present.size(); ++qi)
                        scan(present[pi], present[qi]);
                } else {
                    for (auto w = std::upper_bound(writing.begin(), writing.end(), pi);
                         w != writing.end(); ++w)
                        scan(present[pi], present[*w]);
                }
            }
        };
        if (present.size() > 1 && !writing.empty()) {
            for_each_pair([&](SlotId ps, SlotId qs) {
                // For later events x of slot ps the window of unordered events of slot qs
                // only moves forward (a predecessor of x precedes later x too; a successor
                // of x follows earlier x too): two pointers per candidate list.
                Window all_window, writer_window;
                for (const Incidence* xi : all[ps]) {
                    const EventId x = event_of_rank[xi->rank];
                    const bool x_writes = (xi->access & kAnyWrite) != 0;
                    const auto& candidates = x_writes ? all[qs] : writers[qs];
                    Window& w = x_writes ? all_window : writer_window;
                    while (w.first < candidates.size() &&
                           order.precedes(event_of_rank[candidates[w.first]->rank], x))
                        ++w.first;
                    w.last = std::max(w.last, w.first);
                    while (w.last < candidates.size() &&
                           !order.precedes(x, event_of_rank[candidates[w.last]->rank]))
                        ++w.last;
                    const ProcessId px = g.event_process(x);
                    const std::uint32_t os_thread = trace.processes[px.value].os_thread;
                    for (std::size_t k = w.first; k < w.last; ++k) {
                        const Incidence* yi = candidates[k];
                        const EventId y = event_of_rank[yi->rank];
                        const ProcessId py = g.event_process(y);
                        // Only processes of one OS thread can share private storage: the
                        // check costs nothing for the others.
                        if (os_thread != kNone &&
                            os_thread == trace.processes[py.value].os_thread &&
                            trace.private_to_both(px.value, py.value, segment_range))
                            continue;
                        // a is the event of the lower process.
                        const bool swap = py < px;
                        const std::uint8_t a_access = swap ? yi->access : xi->access;
                        const std::uint8_t b_access = swap ? xi->access : yi->access;
                        std::uint8_t flags = 0;
                        if ((a_access & kAnyWrite) && (b_access & kAnyRead)) flags |= 1;
                        if ((b_access & kAnyWrite) && (a_access & kAnyRead)) flags |= 2;
                        if (races_on(a_access, b_access)) flags |= 4;
                        hits.push_back({swap ? y : x, swap ? x : y, flags});
                        if (hits.size() >= merge_at) {
                            merge_pairs(hits);
                            merge_at = std::max(merge_at, 2 * hits.size());
                        }
                    }
                }
            });
        }
        i = j;
    }
    incidences.clear();
    incidences.shrink_to_fit();

    merge_pairs(hits);
    UnorderedConflicts result;
    for (const ConflictHit& hit : hits) {
        ApparentRace race;
        race.a = hit.a;
        race.b = hit.b;
        race.a_writes_b_reads = (hit.flags & 1) != 0;
        race.b_writes_a_reads = (hit.flags & 2) != 0;
        ((hit.flags & 4) ? result.races : result.atomic_only).push_back(race);
    }
    if (progress) progress("apparent races", 1.0);
    return result;
}

} // namespace firstrace
