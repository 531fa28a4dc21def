#include "apparent_races.hpp"

#include <algorithm>
#include <tuple>

namespace firstrace {
namespace {

// One event touching one elementary address segment.
struct Incidence {
    std::uint32_t segment;
    EventId event; // event ids are ordered by (process, index)
    std::uint8_t flags;
};

// The unordered events of another process for the current event: candidates [first, last).
struct Window {
    std::size_t first = 0;
    std::size_t last = 0;
};

// One race found on one segment.
struct RaceHit {
    EventId a;
    EventId b;
    std::uint32_t segment;
    std::uint8_t control; // bit 0: a writes / b reads, bit 1: b writes / a reads
};

} // namespace

std::vector<ApparentRace> find_apparent_races(const TemporalGraph& g, const EventOrder& order,
                                              const ProgressCallback& progress) {
    const Trace& trace = g.trace();
    // Elementary segments: the address line cut at every interval end point.
    std::vector<std::uint64_t> bounds;
    for (EventId e = 0; e < g.event_count(); ++e) {
        const Event& ev = g.event(e);
        if (ev.kind != EventKind::Computation) continue;
        trace.for_each_data_range(ev, [&](std::uint32_t, const AccessSite&, const Interval& range) {
            bounds.push_back(range.lo);
            bounds.push_back(range.hi);
        });
    }
    std::sort(bounds.begin(), bounds.end());
    bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
    auto segment_of = [&](std::uint64_t address) {
        return static_cast<std::uint32_t>(std::lower_bound(bounds.begin(), bounds.end(), address) -
                                          bounds.begin());
    };

    std::vector<Incidence> incidences;
    for (EventId e = 0; e < g.event_count(); ++e) {
        const Event& ev = g.event(e);
        if (ev.kind != EventKind::Computation) continue;
        trace.for_each_data_range(ev, [&](std::uint32_t, const AccessSite& site,
                                          const Interval& range) {
            const auto flags = static_cast<std::uint8_t>(site.flags & (kAccessRead | kAccessWrite));
            const std::uint32_t last = segment_of(range.hi);
            for (std::uint32_t seg = segment_of(range.lo); seg < last; ++seg)
                incidences.push_back({seg, e, flags});
        });
    }
    std::sort(incidences.begin(), incidences.end(), [](const Incidence& x, const Incidence& y) {
        return std::tie(x.segment, x.event) < std::tie(y.segment, y.event);
    });
    // Merge the flags of one event on one segment.
    std::size_t out = 0;
    for (std::size_t i = 0; i < incidences.size(); ++i) {
        if (out > 0 && incidences[out - 1].segment == incidences[i].segment &&
            incidences[out - 1].event == incidences[i].event)
            incidences[out - 1].flags |= incidences[i].flags;
        else
            incidences[out++] = incidences[i];
    }
    incidences.resize(out);

    std::vector<RaceHit> hits;
    const std::uint32_t p = g.process_count();
    // Per process: the accessors and the writers of the current segment.
    std::vector<std::vector<const Incidence*>> all(p), writers(p);
    std::vector<std::uint32_t> present;
    for (std::size_t i = 0; i < incidences.size();) {
        std::size_t j = i;
        while (j < incidences.size() && incidences[j].segment == incidences[i].segment)
            ++j;
        if (progress && (i & 0xffff) == 0)
            progress("apparent races", double(i) / double(incidences.size()));
        for (std::uint32_t q : present) {
            all[q].clear();
            writers[q].clear();
        }
        present.clear();
        for (std::size_t k = i; k < j; ++k) {
            const std::uint32_t q = g.event_process(incidences[k].event);
            if (all[q].empty()) present.push_back(q);
            all[q].push_back(&incidences[k]);
            if (incidences[k].flags & kAccessWrite) writers[q].push_back(&incidences[k]);
        }
        if (present.size() > 1) {
            std::sort(present.begin(), present.end());
            for (std::size_t pi = 0; pi < present.size(); ++pi) {
                const std::uint32_t pp = present[pi];
                for (std::size_t qi = pi + 1; qi < present.size(); ++qi) {
                    const std::uint32_t qq = present[qi];
                    // For later events x of pp the window of unordered events of qq only moves
                    // forward (a predecessor of x precedes later x too; a successor of x follows
                    // earlier x too): two pointers per candidate list.
                    Window all_window, writer_window;
                    for (const Incidence* x : all[pp]) {
                        const bool x_writes = (x->flags & kAccessWrite) != 0;
                        const auto& candidates = x_writes ? all[qq] : writers[qq];
                        Window& w = x_writes ? all_window : writer_window;
                        while (w.first < candidates.size() &&
                               order.precedes(candidates[w.first]->event, x->event))
                            ++w.first;
                        w.last = std::max(w.last, w.first);
                        while (w.last < candidates.size() &&
                               !order.precedes(x->event, candidates[w.last]->event))
                            ++w.last;
                        for (std::size_t k = w.first; k < w.last; ++k) {
                            const Incidence* y = candidates[k];
                            std::uint8_t control = 0;
                            if ((x->flags & kAccessWrite) && (y->flags & kAccessRead)) control |= 1;
                            if ((y->flags & kAccessWrite) && (x->flags & kAccessRead)) control |= 2;
                            hits.push_back({x->event, y->event, incidences[i].segment, control});
                        }
                    }
                }
            }
        }
        i = j;
    }
    incidences.clear();
    incidences.shrink_to_fit();

    std::sort(hits.begin(), hits.end(), [](const RaceHit& x, const RaceHit& y) {
        return std::tie(x.a, x.b, x.segment) < std::tie(y.a, y.b, y.segment);
    });
    std::vector<ApparentRace> races;
    for (std::size_t i = 0; i < hits.size();) {
        ApparentRace race;
        race.a = hits[i].a;
        race.b = hits[i].b;
        std::size_t j = i;
        for (; j < hits.size() && hits[j].a == race.a && hits[j].b == race.b; ++j) {
            const Interval seg{bounds[hits[j].segment], bounds[hits[j].segment + 1]};
            if (!race.conflicts.empty() && race.conflicts.back().hi == seg.lo)
                race.conflicts.back().hi = seg.hi;
            else
                race.conflicts.push_back(seg);
            race.a_writes_b_reads |= (hits[j].control & 1) != 0;
            race.b_writes_a_reads |= (hits[j].control & 2) != 0;
        }
        races.push_back(std::move(race));
        i = j;
    }
    if (progress) progress("apparent races", 1.0);
    return races;
}

} // namespace firstrace
