#include "apparent_races.hpp"

#include <algorithm>
#include <bit>
#include <tuple>

#include "conflict_rule.hpp"
#include "huge_pages.hpp"

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

// First j in [from, n) where pred(j) is false, for a pred true on a prefix of [0, n) (and so on
// a prefix of [from, n)): galloping from `from`, then binary search, so the cost follows the
// distance moved.
template <class Pred> std::uint32_t first_false(std::uint32_t from, std::uint32_t n, Pred pred) {
    std::uint32_t lo = from, step = 1;
    while (lo < n && pred(lo)) {
        const std::uint32_t probe = lo + step >= n ? n - 1 : lo + step;
        if (!pred(probe)) {
            // pred(lo) true, pred(probe) false: the answer is in (lo, probe].
            std::uint32_t hi = probe;
            ++lo;
            while (lo < hi) {
                const std::uint32_t mid = lo + (hi - lo) / 2;
                if (pred(mid))
                    lo = mid + 1;
                else
                    hi = mid;
            }
            return lo;
        }
        lo = probe + 1;
        step *= 2;
    }
    return lo;
}

// First j in [first, last) with rank(j) >= lo, for ranks ascending on [first, last), starting
// from `cursor` (where the previous search of this list ended) when the answer lies at or after
// it, and leaving the answer there.
template <class RankAt>
std::uint32_t seek(std::uint32_t& cursor, std::uint32_t first, std::uint32_t last, std::uint32_t lo,
                   RankAt rank_at) {
    const auto below = [&](std::uint32_t j) { return rank_at(j) < lo; };
    if (cursor == first || below(cursor - 1)) {
        cursor = first_false(cursor, last, below);
    } else { // the answer lies in [first, cursor - 1]: bisection
        std::uint32_t lo = first, hi = cursor - 1;
        while (lo < hi) {
            const std::uint32_t mid = lo + (hi - lo) / 2;
            if (below(mid))
                lo = mid + 1;
            else
                hi = mid;
        }
        cursor = lo;
    }
    return cursor;
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
    bounds.shrink_to_fit(); // two words a data range reserved, mostly repeats (DESIGN-NOTES "Sparse
                            // vector timestamps")
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

    // Event-major sweep (issue 14): each event x looks, on every segment it touches, at the
    // events of other slots on that segment inside x's window of unordered events, and keeps
    // the partners of a higher process (x is then the race's `a`). A partner met on several
    // segments is merged through a mark per event instead of sorting (pair, segment) hits,
    // which are many times the races on dense traces (10^8 hits sorted took 30 s at 10^5 lines
    // of 100 shared variables), and x's partners come out in event order: the races are
    // produced sorted by (a, b), with no pass over all of them.
    //
    // Per segment, the incidences of one slot are contiguous (ranks are slot-major): a group.
    // A reader only looks at the writers of groups that write the segment, so that a variable
    // read by many tasks and written by few costs readers x writers, not readers².
    struct SlotGroup {
        SlotId slot;
        std::uint32_t first, last;   // its incidences
        std::uint32_t wfirst, wlast; // its writing incidences, indices into writer_incidences
        // Where the last search for a window's first rank ended, in each list: the next search,
        // usually by the next event of the same process (whose window starts at or after the
        // last one), gallops from there instead of a binary search over the whole group (10^7
        // lines of the random shape: groups of ~10^3 incidences, a cache miss per probe).
        std::uint32_t cursor = 0, wcursor = 0;
    };
    std::vector<SlotGroup> groups;
    std::vector<std::uint32_t> segment_groups; // per segment with incidences: first group
    std::vector<std::uint32_t> writer_incidences;
    std::vector<std::uint32_t> writer_groups; // per segment, the groups that write it
    std::vector<std::uint32_t> segment_writer_groups;
    // Incidences of each rank, as indices into `incidences` (CSR).
    std::vector<std::uint32_t> rank_first(event_of_rank.size() + 1, 0);
    for (const Incidence& inc : incidences)
        ++rank_first[inc.rank + 1];
    for (std::size_t r = 0; r < event_of_rank.size(); ++r)
        rank_first[r + 1] += rank_first[r];
    std::vector<std::uint32_t> rank_incidences(incidences.size());
    {
        std::vector<std::uint32_t> fill(rank_first.begin(), rank_first.end() - 1);
        for (std::uint32_t k = 0; k < incidences.size(); ++k)
            rank_incidences[fill[incidences[k].rank]++] = k;
    }
    // Group index of each incidence's segment: segment -> dense index of segments present.
    std::vector<std::uint32_t> segment_index(bounds.empty() ? 0 : bounds.size(), kNone);
    for (std::uint32_t i = 0; i < incidences.size();) {
        const std::uint32_t segment = incidences[i].segment;
        segment_index[segment] = static_cast<std::uint32_t>(segment_groups.size());
        segment_groups.push_back(static_cast<std::uint32_t>(groups.size()));
        segment_writer_groups.push_back(static_cast<std::uint32_t>(writer_groups.size()));
        while (i < incidences.size() && incidences[i].segment == segment) {
            const SlotId slot = g.event_slot(event_of_rank[incidences[i].rank]);
            SlotGroup group{slot, i, i, static_cast<std::uint32_t>(writer_incidences.size()), 0};
            group.cursor = i;
            group.wcursor = group.wfirst;
            while (i < incidences.size() && incidences[i].segment == segment &&
                   g.event_slot(event_of_rank[incidences[i].rank]) == slot) {
                if (incidences[i].access & kAnyWrite) writer_incidences.push_back(i);
                ++i;
            }
            group.last = i;
            group.wlast = static_cast<std::uint32_t>(writer_incidences.size());
            if (group.wlast > group.wfirst)
                writer_groups.push_back(static_cast<std::uint32_t>(groups.size()));
            groups.push_back(group);
        }
    }
    segment_groups.push_back(static_cast<std::uint32_t>(groups.size()));
    segment_writer_groups.push_back(static_cast<std::uint32_t>(writer_groups.size()));

    std::vector<std::uint32_t> slot_base(g.slot_count() + 1, 0);
    for (const SlotId s : g.slots())
        slot_base[s.value + 1] = slot_base[s.value] + std::uint32_t(g.slot_events(s).size());
    // The highest process with events in each slot: x skips a slot whose events all belong to
    // lower processes (their races with x are found from their side), without a window or a
    // visit (hot, vars: half of all visits).
    IdVector<SlotId, ProcessId> slot_last_process(g.slot_count(), ProcessId(0));
    for (const SlotId s : g.slots())
        for (const EventId e : g.slot_events(s))
            slot_last_process[s] = std::max(slot_last_process[s], g.event_process(e));

    // x's window of unordered events in slot q, as ranks [lo, hi): the events of q preceding x
    // are a prefix of q's chain, those x precedes a suffix. Computed once per (x, q) when x
    // first needs it, by galloping from the window of the previous event of x's process (the
    // windows only move forward along a process).
    struct SlotWindow {
        std::uint32_t stamp = kNone; // event whose window this is
        ProcessId process;           // process of the last event that computed it
        std::uint32_t lo = 0, hi = 0;
    };
    IdVector<SlotId, SlotWindow> windows(g.slot_count());
    auto window_of = [&](EventId x, ProcessId px, SlotId q) -> SlotWindow& {
        SlotWindow& w = windows[q];
        if (w.stamp == x.value) return w;
        const std::vector<EventId>& chain = g.slot_events(q);
        const std::uint32_t n = static_cast<std::uint32_t>(chain.size());
        std::uint32_t lo = 0, hi = 0;
        if (w.stamp != kNone && w.process == px) {
            lo = w.lo - slot_base[q.value];
            hi = w.hi - slot_base[q.value];
        }
        lo = first_false(lo, n, [&](std::uint32_t j) { return order.precedes(chain[j], x); });
        hi = first_false(std::max(hi, lo), n,
                         [&](std::uint32_t j) { return !order.precedes(x, chain[j]); });
        w = {x.value, px, slot_base[q.value] + lo, slot_base[q.value] + hi};
        return w;
    };

    // Partners of the current x: a mark bit and the OR of the flags per event.
    const std::uint32_t event_count = g.event_count();
    std::vector<std::uint64_t> marked((event_count + 63) / 64, 0);
    std::vector<std::uint8_t> partner_flags(event_count, 0);
    std::vector<std::uint32_t> partners;
    std::vector<std::uint32_t> rank_of_event(event_count, kNone);
    for (std::uint32_t rank = 0; rank < event_of_rank.size(); ++rank)
        rank_of_event[event_of_rank[rank].value] = rank;

    UnorderedConflicts result;
    for (const EventId x : g.events()) {
        if (progress && (x.value & 0x3fff) == 0)
            progress("apparent races", double(x.value) / double(event_count));
        const std::uint32_t rank = rank_of_event[x.value];
        if (rank == kNone || rank_first[rank] == rank_first[rank + 1]) continue;
        const ProcessId px = g.event_process(x);
        const SlotId sx = g.event_slot(x);
        const std::uint32_t os_thread = trace.processes[px.value].os_thread;
        partners.clear();
        for (std::uint32_t k = rank_first[rank]; k < rank_first[rank + 1]; ++k) {
            const Incidence& xi = incidences[rank_incidences[k]];
            const bool x_writes = (xi.access & kAnyWrite) != 0;
            const std::uint32_t si = segment_index[xi.segment];
            const Interval segment_range{bounds[xi.segment], bounds[xi.segment + 1]};
            auto scan_group = [&](SlotGroup& group) {
                if (group.slot == sx || slot_last_process[group.slot] < px) return;
                const SlotWindow& w = window_of(x, px, group.slot);
                if (w.lo == w.hi) return;
                auto visit = [&](const Incidence& yi) {
                    const EventId y = event_of_rank[yi.rank];
                    const ProcessId py = g.event_process(y);
                    if (py < px) return; // found from y's side
                    // Only processes of one OS thread can share private storage: the check
                    // costs nothing for the others.
                    if (os_thread != kNone && os_thread == trace.processes[py.value].os_thread &&
                        trace.private_to_both(px.value, py.value, segment_range))
                        return;
                    std::uint8_t flags = 0;
                    if ((xi.access & kAnyWrite) && (yi.access & kAnyRead)) flags |= 1;
                    if ((yi.access & kAnyWrite) && (xi.access & kAnyRead)) flags |= 2;
                    if (races_on(xi.access, yi.access)) flags |= 4;
                    std::uint64_t& word = marked[y.value >> 6];
                    const std::uint64_t bit = std::uint64_t(1) << (y.value & 63);
                    if (!(word & bit)) {
                        word |= bit;
                        partner_flags[y.value] = flags;
                        partners.push_back(y.value);
                    } else {
                        partner_flags[y.value] |= flags;
                    }
                };
                if (x_writes) {
                    for (std::uint32_t i =
                             seek(group.cursor, group.first, group.last, w.lo,
                                  [&](std::uint32_t j) { return incidences[j].rank; });
                         i != group.last && incidences[i].rank < w.hi; ++i)
                        visit(incidences[i]);
                } else {
                    auto rank_at = [&](std::uint32_t j) {
                        return incidences[writer_incidences[j]].rank;
                    };
                    for (std::uint32_t i =
                             seek(group.wcursor, group.wfirst, group.wlast, w.lo, rank_at);
                         i != group.wlast && rank_at(i) < w.hi; ++i)
                        visit(incidences[writer_incidences[i]]);
                }
            };
            if (x_writes) {
                for (std::uint32_t gi = segment_groups[si]; gi < segment_groups[si + 1]; ++gi)
                    scan_group(groups[gi]);
            } else {
                for (std::uint32_t wi = segment_writer_groups[si];
                     wi < segment_writer_groups[si + 1]; ++wi)
                    scan_group(groups[writer_groups[wi]]);
            }
        }
        // x's partners in event order: from the mark bits when they are dense, else sorted.
        auto emit = [&](std::uint32_t y) {
            const std::uint8_t flags = partner_flags[y];
            ApparentRace race;
            race.a = x;
            race.b = EventId(y);
            race.a_writes_b_reads = (flags & 1) != 0;
            race.b_writes_a_reads = (flags & 2) != 0;
            push_back_on_huge_pages((flags & 4) ? result.races : result.atomic_only, race);
        };
        const std::size_t first_word = (x.value + 1) >> 6;
        if (partners.size() * 16 >= marked.size() - first_word) {
            for (std::size_t wi = first_word; wi < marked.size(); ++wi)
                for (std::uint64_t word = marked[wi]; word != 0; word &= word - 1)
                    emit(static_cast<std::uint32_t>(wi * 64 + std::countr_zero(word)));
            for (std::size_t wi = first_word; wi < marked.size(); ++wi)
                marked[wi] = 0;
        } else {
            std::sort(partners.begin(), partners.end());
            for (const std::uint32_t y : partners) {
                emit(y);
                marked[y >> 6] = 0;
            }
        }
    }
    if (progress) progress("apparent races", 1.0);
    return result;
}

} // namespace firstrace
