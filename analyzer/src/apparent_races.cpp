#include "apparent_races.hpp"

#include <algorithm>
#include <bit>
#include <tuple>

#include "access_intervals.hpp"
#include "chunked_array.hpp"
#include "conflict_rule.hpp"
#include "flat_id_map.hpp"
#include "galloping_search.hpp"
#include "huge_pages.hpp"
#include "shared_granules.hpp"

namespace firstrace {
namespace {

// One event touching one elementary address segment (the segment is implied by the position in
// the segment-major array). Events are numbered by their rank in the timestamp slot chains
// (slot by slot, in chain order): the events of one slot are totally ordered in G, so races
// are only looked for between slots, whose number is that of processes live at once even when
// processes are many. Stored as two arrays (5 bytes, not 8 with padding: SQLite's
// create_drop_index_1 has 1.2·10^8 incidences).
struct Incidence {
    std::uint32_t rank;
    std::uint8_t access; // SegmentAccess
};
// The incidences as the sweep stores them (two arrays, 5 bytes an incidence), read as records.
struct IncidenceArrays {
    const std::vector<std::uint32_t>* rank;
    const std::vector<std::uint8_t>* access;
    Incidence operator[](std::size_t i) const { return {(*rank)[i], (*access)[i]}; }
};

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

// The pairs of unordered events whose conflicts are all atomic are dependences only
// (apparent_races.hpp), and of those the transitive search and the compacted edges need few
// (DESIGN-NOTES "Atomic-only pairs of unlinked events"): a chain of two dependences or more
// has an inner event with partners (conflicting unordered events) in two other processes, a
// *linked* event; every edge of such a chain has a linked end. A pair with no linked end is a
// direct dependence only, and of the direct dependences from an event x into a process q only
// the earliest target counts (Alg 7.2's compaction: the later ones are implied by process order).
// So an event x that is not linked, on a segment it accesses atomically only, visits its
// races (the plain partners), its linked atomic partners, and per other process the earliest
// atomic-only partner x -> y allowed in either ordering mode and the earliest with
// WRITE(x) ∩ READ(y) (Ê): a few pairs instead of every atomic partner in its window (a
// seq_cst counter released 10^6 times, spun on with acquire loads by another thread: ~10^11
// pairs before). An unlinked x has partners in one process at most, so the earliest of its
// window is that process's earliest.
//
// Here: which events are linked (over-approximated: private storage is not looked at), and
// per (segment, slot group) of a segment that some event accesses atomically only, the lists
// of its incidences by kind, ascending by rank.
// Whether an event's visits list its windows first (DESIGN-NOTES "Segments without group
// records"): its segments without group records (`span` of its pieces) hold at least
// `factor` x slots incidences; kNone turns it off.
bool lists_windows(std::uint32_t factor, std::uint32_t slots, const auto& span,
                   const auto& piece_segments, const std::vector<std::uint32_t>& segment_groups,
                   const std::vector<std::uint32_t>& segment_first) {
    if (factor == kNone) return false;
    std::uint64_t implicit_incidences = 0;
    for (std::uint32_t k = span.begin; k < span.end; ++k)
        for (std::uint32_t seg = piece_segments[k].first; seg < piece_segments[k].last; ++seg)
            if (segment_groups[seg] == segment_groups[seg + 1])
                implicit_incidences += segment_first[seg + 1] - segment_first[seg];
    return implicit_incidences != 0 && implicit_incidences >= std::uint64_t(factor) * slots;
}

class AtomicPartnerLists {
  public:
    enum Kind : std::uint8_t {
        kPlain,               // any plain access: races with an atomic write
        kPlainWriters,        // races with an atomic read
        kAtomic,              // atomic accesses only: atomic-only partners of an atomic write
        kAtomicWriters,       // an atomic write and no plain one: of an atomic read
        kAtomicReaders,       // atomic accesses only, one a read: Ê targets of an atomic write
        kLinkedAtomic,        // kAtomic of linked events
        kLinkedAtomicWriters, // kAtomicWriters of linked events
        kKinds
    };
    static Kind races_of(std::uint8_t x_access) {
        return (x_access & kAtomicWrite) ? kPlain : kPlainWriters;
    }
    static Kind atomic_of(std::uint8_t x_access) {
        return (x_access & kAtomicWrite) ? kAtomic : kAtomicWriters;
    }
    static Kind linked_atomic_of(std::uint8_t x_access) {
        return (x_access & kAtomicWrite) ? kLinkedAtomic : kLinkedAtomicWriters;
    }

    // window_of(x, process of x, slot) -> x's window of unordered ranks in the slot, as the
    // sweep computes it (its cache is left moved: the caller resets it; the groups' cursors
    // too, which the sweep's seek() takes from anywhere).
    AtomicPartnerLists(const TemporalGraph& g, const std::vector<EventId>& event_of_rank,
                       const IncidenceArrays& incidences,
                       const std::vector<std::uint32_t>& segment_first, auto& groups,
                       const std::vector<std::uint32_t>& segment_groups,
                       const std::vector<std::uint32_t>& writer_incidences, const auto& rank_span,
                       const auto& piece_segments, const std::vector<std::uint8_t>& piece_access,
                       std::uint64_t linked_pair_budget, auto&& window_of, auto&& for_each_slot_run,
                       std::uint32_t window_list_factor)
        : incidences_(&incidences), segment_groups_(&segment_groups) {
        const auto segments = static_cast<std::uint32_t>(segment_groups.size() - 1);
        const auto ranks = static_cast<std::uint32_t>(event_of_rank.size());
        constexpr std::uint8_t kPlainBits = kPlainRead | kPlainWrite;
        // Segments some event accesses atomically only, and the events with an atomic access
        // there (the only ones whose linking matters).
        std::vector<std::uint8_t> atomic_segment(segments, 0);
        std::vector<std::uint8_t> candidate(ranks, 0);
        bool any = false;
        for (std::uint32_t seg = 0; seg < segments; ++seg)
            for (std::uint32_t i = segment_first[seg]; i < segment_first[seg + 1]; ++i)
                if ((incidences[i].access & kPlainBits) == 0) atomic_segment[seg] = any = true;
        if (!any) return;
        for (std::uint32_t seg = 0; seg < segments; ++seg)
            if (atomic_segment[seg])
                for (std::uint32_t i = segment_first[seg]; i < segment_first[seg + 1]; ++i)
                    if (incidences[i].access & (kAtomicRead | kAtomicWrite))
                        candidate[incidences[i].rank] = 1;

        linked_.assign(ranks, 1);
        bool unlinked = false;
        std::vector<std::pair<std::uint32_t, std::uint32_t>> x_windows; // ranks [lo, hi)
        // The conflicting incidences in the windows of linked events: what their full visits
        // would take (an upper bound of their atomic-only pairs, twice over).
        std::uint64_t linked_visits = 0;
        for (std::uint32_t rank = 0; rank < ranks; ++rank) {
            if (!candidate[rank]) continue;
            const EventId x = event_of_rank[rank];
            const ProcessId px = g.event_process(x);
            const SlotId sx = g.event_slot(x);
            ProcessId partner = ProcessId::none();
            bool linked = false;
            std::uint64_t visits = 0;
            // (past the budget the count stops: the linked test alone stops at the first
            // second process, as before the count)
            const bool count = linked_visits <= linked_pair_budget;
            auto note_partner = [&](std::uint32_t partner_rank) {
                const ProcessId q = g.event_process(event_of_rank[partner_rank]);
                if (!partner.valid())
                    partner = q;
                else if (partner != q)
                    linked = true;
            };
            // x's windows in every other slot, listed first when its segments without group
            // records hold many incidences (as in the sweep below)
            const bool listed_windows =
                lists_windows(window_list_factor, g.slot_count(), rank_span[rank], piece_segments,
                              segment_groups, segment_first);
            if (listed_windows) {
                x_windows.clear();
                for (const SlotId q : g.slots()) {
                    if (q == sx) continue;
                    const auto& w = window_of(x, px, q);
                    if (w.lo != w.hi) x_windows.emplace_back(w.lo, w.hi);
                }
            }
            // The conflicting incidences of a window of segment-major indices [first, last).
            auto note_window = [&](bool writes, std::uint32_t from, std::uint32_t last,
                                   std::uint32_t hi_rank) {
                std::uint32_t lo = kNone, hi = kNone; // first and last conflicting
                std::uint32_t j = from;
                for (; j < last && incidences[j].rank < hi_rank; ++j)
                    if (writes || (incidences[j].access & kAnyWrite)) {
                        if (lo == kNone) lo = j;
                        hi = j;
                        ++visits;
                    }
                if (lo != kNone) {
                    note_partner(incidences[lo].rank);
                    note_partner(incidences[hi].rank);
                }
                return j;
            };
            for (std::uint32_t k = rank_span[rank].begin;
                 k < rank_span[rank].end && (count || !linked); ++k)
                for (std::uint32_t seg = piece_segments[k].first;
                     seg < piece_segments[k].last && (count || !linked); ++seg) {
                    if (listed_windows && segment_groups[seg] == segment_groups[seg + 1]) {
                        const bool writes = (piece_access[k] & kAnyWrite) != 0;
                        const std::uint32_t end = segment_first[seg + 1];
                        std::uint32_t j = segment_first[seg];
                        for (const auto& w : x_windows) {
                            j = first_false(j, end, [&](std::uint32_t i) {
                                return incidences[i].rank < w.first;
                            });
                            if (j == end) break;
                            j = note_window(writes, j, end, w.second);
                        }
                        continue;
                    }
                    if (segment_groups[seg] == segment_groups[seg + 1]) {
                        // no group records (or no incidences): the runs of one slot
                        const bool writes = (piece_access[k] & kAnyWrite) != 0;
                        for_each_slot_run(
                            seg, [&](SlotId slot, std::uint32_t first, std::uint32_t last) {
                                if (slot == sx || (!count && linked)) return;
                                const auto& w = window_of(x, px, slot);
                                if (w.lo == w.hi) return;
                                note_window(writes,
                                            first_false(first, last,
                                                        [&](std::uint32_t i) {
                                                            return incidences[i].rank < w.lo;
                                                        }),
                                            last, w.hi);
                            });
                        continue;
                    }
                    for (std::uint32_t gi = segment_groups[seg];
                         gi < segment_groups[seg + 1] && (count || !linked); ++gi) {
                        auto& group = groups[gi];
                        if (group.slot == sx) continue;
                        const auto& w = window_of(x, px, group.slot);
                        if (w.lo == w.hi) continue;
                        // the conflicting incidences of the window: the first and the last
                        // (ranks are process-contiguous: two processes iff they differ)
                        const bool writes = (piece_access[k] & kAnyWrite) != 0;
                        auto rank_at = [&](std::uint32_t j) {
                            return writes ? incidences[j].rank
                                          : incidences[writer_incidences[j]].rank;
                        };
                        const std::uint32_t first = writes ? group.first : group.wfirst;
                        const std::uint32_t last = writes ? group.last : group.wlast;
                        // from where the group's last search ended (the sweep's cursors,
                        // which seek() takes from anywhere): the windows of a process move
                        // forward
                        const std::uint32_t lo =
                            seek(writes ? group.cursor : group.wcursor, first, last, w.lo, rank_at);
                        const std::uint32_t hi = first_false(
                            lo, last, [&](std::uint32_t j) { return rank_at(j) < w.hi; });
                        if (lo == hi) continue;
                        visits += hi - lo;
                        for (const std::uint32_t j : {lo, hi - 1})
                            note_partner(rank_at(j));
                    }
                }
            linked_[rank] = linked;
            unlinked = unlinked || !linked;
            if (linked) linked_visits += visits;
        }
        if (linked_visits > linked_pair_budget) {
            // Too many to keep (LLVM's stress.cpp: 10^7 events, three threads updating one
            // counter 10^6 times each while a fourth races; the pair list passed 2^29): every
            // event takes the reduced visit, and the linked ones whose windows hold more
            // atomic-only partners than it keeps are marked approximated (the sweep), for the
            // dependences to treat conservatively (DESIGN-NOTES "Atomic-only pairs over the
            // budget").
            was_linked_ = std::move(linked_);
            linked_.assign(ranks, 0);
            unlinked = true;
        }
        if (!unlinked) { // every visit is the full one (threads all on one counter)
            linked_.clear();
            return;
        }

        // The lists, per group of an atomic segment.
        segment_base_.assign(segments, kNone);
        std::uint32_t atomic_groups = 0;
        for (std::uint32_t seg = 0; seg < segments; ++seg)
            if (atomic_segment[seg]) {
                segment_base_[seg] = atomic_groups;
                atomic_groups += segment_groups[seg + 1] - segment_groups[seg];
            }
        span_first_.reserve(std::size_t(atomic_groups) * kKinds + 1);
        span_first_.push_back(0);
        for (std::uint32_t seg = 0; seg < segments; ++seg) {
            if (!atomic_segment[seg]) continue;
            for (std::uint32_t gi = segment_groups[seg]; gi < segment_groups[seg + 1]; ++gi)
                for (std::uint8_t kind = 0; kind < kKinds; ++kind) {
                    for (std::uint32_t i = groups[gi].first; i < groups[gi].last; ++i)
                        if (is_of(static_cast<Kind>(kind), incidences[i]) &&
                            (kind < kLinkedAtomic || linked_[incidences[i].rank]))
                            members_.push_back(i);
                    span_first_.push_back(static_cast<std::uint32_t>(members_.size()));
                }
        }
    }

    bool linked(std::uint32_t rank) const { return linked_.empty() || linked_[rank] != 0; }
    // Over the budget: every visit is reduced, and these events' may drop pairs a chain needs.
    bool approximate() const { return !was_linked_.empty(); }
    bool was_linked(std::uint32_t rank) const { return was_linked_[rank] != 0; }
    // x's access to the segment can take the reduced visit: atomic only, on a listed segment.
    bool reduces(std::uint32_t seg, std::uint8_t x_access) const {
        return !segment_base_.empty() && segment_base_[seg] != kNone &&
               (x_access & (kPlainRead | kPlainWrite)) == 0;
    }
    // The members of group gi's list `kind` whose ranks lie in [lo, hi): indices for member().
    std::pair<std::uint32_t, std::uint32_t> in_window(std::uint32_t seg, std::uint32_t gi,
                                                      Kind kind, std::uint32_t lo,
                                                      std::uint32_t hi) const {
        const std::size_t span =
            std::size_t(segment_base_[seg] + gi - (*segment_groups_)[seg]) * kKinds + kind;
        auto rank_at = [&](std::uint32_t j) { return (*incidences_)[members_[j]].rank; };
        const std::uint32_t first =
            lower_bound(span_first_[span], span_first_[span + 1], lo, rank_at);
        return {first, lower_bound(first, span_first_[span + 1], hi, rank_at)};
    }
    std::uint32_t member(std::uint32_t i) const { return members_[i]; }
    // The member index in [first, last) of the incidence of rank `rank`, or `last`.
    std::uint32_t find_rank(std::uint32_t first, std::uint32_t last, std::uint32_t rank) const {
        const std::uint32_t j = lower_bound(
            first, last, rank, [&](std::uint32_t i) { return (*incidences_)[members_[i]].rank; });
        return j != last && (*incidences_)[members_[j]].rank == rank ? j : last;
    }
    // First member index in [first, last) whose incidence fails `pred`, for a pred true on a
    // prefix.
    template <class Pred>
    std::uint32_t partition_point(std::uint32_t first, std::uint32_t last, Pred pred) const {
        while (first < last) {
            const std::uint32_t mid = first + (last - first) / 2;
            if (pred((*incidences_)[members_[mid]]))
                first = mid + 1;
            else
                last = mid;
        }
        return first;
    }

  private:
    static bool is_of(Kind kind, const Incidence& y) {
        const std::uint8_t a = y.access;
        const bool plain = (a & (kPlainRead | kPlainWrite)) != 0;
        switch (kind) {
        case kPlain:
            return plain;
        case kPlainWriters:
            return (a & kPlainWrite) != 0;
        case kAtomic:
        case kLinkedAtomic: // and linked: the caller
            return !plain;
        case kAtomicWriters:
        case kLinkedAtomicWriters:
            return (a & kAtomicWrite) && !(a & kPlainWrite);
        case kAtomicReaders:
            return !plain && (a & kAtomicRead);
        case kKinds:
            break;
        }
        return false;
    }

    // First j in [first, last) with rank_at(j) >= rank, for ranks ascending.
    template <class RankAt>
    static std::uint32_t lower_bound(std::uint32_t first, std::uint32_t last, std::uint32_t rank,
                                     RankAt rank_at) {
        while (first < last) {
            const std::uint32_t mid = first + (last - first) / 2;
            if (rank_at(mid) < rank)
                first = mid + 1;
            else
                last = mid;
        }
        return first;
    }

    const IncidenceArrays* incidences_;
    const std::vector<std::uint32_t>* segment_groups_;
    std::vector<std::uint8_t> linked_;        // per rank (empty: all linked)
    std::vector<std::uint8_t> was_linked_;    // per rank, over the budget (else empty)
    std::vector<std::uint32_t> segment_base_; // per segment: its first group's list index
    std::vector<std::uint32_t> span_first_;   // CSR: (list group, kind) -> members
    std::vector<std::uint32_t> members_;      // incidence indices
};

// Merges the atomic-only pairs found from their b's side (unsorted, repeats) into the
// result's: those that are races on another segment are dropped, repeats joined.
void merge_atomic_pairs(UnorderedConflicts& result, std::vector<ApparentRace> from_b_side) {
    if (from_b_side.empty()) return;
    auto key = [](const ApparentRace& r) { return std::tie(r.a, r.b); };
    auto less = [&](const ApparentRace& l, const ApparentRace& r) { return key(l) < key(r); };
    std::sort(from_b_side.begin(), from_b_side.end(), less);
    std::vector<ApparentRace> merged;
    merged.reserve(result.atomic_only.size() + from_b_side.size());
    auto add = [&](const ApparentRace& r) {
        if (!merged.empty() && key(merged.back()) == key(r)) {
            merged.back().a_writes_b_reads |= r.a_writes_b_reads;
            merged.back().b_writes_a_reads |= r.b_writes_a_reads;
        } else {
            merged.push_back(r);
        }
    };
    std::size_t i = 0;
    for (const ApparentRace& r : from_b_side) {
        if (result.races.contains(r.a, r.b)) continue;
        for (; i < result.atomic_only.size() && !less(r, result.atomic_only[i]); ++i)
            add(result.atomic_only[i]);
        add(r);
    }
    for (; i < result.atomic_only.size(); ++i)
        add(result.atomic_only[i]);
    result.atomic_only = std::move(merged);
}

} // namespace

UnorderedConflicts find_apparent_races(const TemporalGraph& g, const EventOrder& order,
                                       const ProgressCallback& progress,
                                       const DenseGroupRule& dense,
                                       std::uint64_t atomic_pair_budget) {
    const Trace& trace = g.trace();
    std::vector<EventId> event_of_rank;
    event_of_rank.reserve(g.event_count());
    for (const SlotId s : g.slots())
        event_of_rank.insert(event_of_rank.end(), g.slot_events(s).begin(), g.slot_events(s).end());
    const auto ranks = static_cast<std::uint32_t>(event_of_rank.size());
    std::vector<std::uint32_t> slot_of_rank(ranks);
    {
        std::uint32_t rank = 0;
        for (const SlotId s : g.slots())
            for (std::size_t i = 0; i < g.slot_events(s).size(); ++i)
                slot_of_rank[rank++] = s.value;
    }

    // Each event's accesses as disjoint intervals of uniform access bits, the union over its
    // sites (access_intervals.hpp): a race is a pair of events, and what it races on is
    // recomputed from them when a report asks (race_accesses.cpp). Real programs' events
    // have thousands of ranges per site, mostly repeated or adjacent (zstd -T4: 5.9·10^6
    // ranges, 8.5·10^5 intervals), and every range end cut the address line for everyone.
    // An event that repeats an earlier one's run of sites (the reader shares it:
    // trace_site_runs.hpp) shares its intervals too: rank -> [begin, end) of the pieces, a span
    // unioned once per run (SQLite's threadtest3 lookaside1: 2.5·10^8 ranges counted per event,
    // 3·10^7 in the runs; DESIGN-NOTES "The sweep re-expanded shared site runs").
    //
    // Only the bytes where two slots may conflict are kept (shared_granules.hpp): a first pass
    // over the ranges finds the granules two slots touch, one writing (xz -T4: 7.8·10^7 intervals
    // for 3 289 live segments before).
    SharedGranules shared(dense.shared_granule_bits);
    if (!shared.keeps_all()) {
        // an event repeating the run of sites of the event before it in its slot notes nothing
        // new (the reader shares runs: trace_site_runs.hpp)
        struct RunSlot {
            std::uint32_t site_count, slot;
        };
        std::vector<RunSlot> run_slots;
        FlatIdMap run_of_first_site;
        for (std::uint32_t rank = 0; rank < ranks && !shared.keeps_all(); ++rank) {
            const Event& ev = g.event(event_of_rank[rank]);
            if (ev.kind != EventKind::Computation || ev.site_count == 0) continue;
            const std::uint32_t slot = slot_of_rank[rank];
            const auto [run, inserted] = run_of_first_site.try_emplace(
                ev.first_site, static_cast<std::uint32_t>(run_slots.size()));
            if (inserted) {
                run_slots.push_back({ev.site_count, slot});
            } else if (run_slots[run].site_count == ev.site_count && run_slots[run].slot == slot) {
                continue;
            } else {
                run_slots[run] = {ev.site_count, slot};
            }
            trace.for_each_data_range(
                ev, [&](std::uint32_t, const AccessSite& site, const Interval& range) {
                    const std::uint8_t access = segment_access(site.flags);
                    if (access != 0)
                        shared.touch(slot, range.lo, range.hi, (access & kAnyWrite) != 0);
                });
        }
        shared.finish();
    }
    struct PieceSpan {
        std::uint32_t begin = 0, end = 0;
    };
    std::vector<PieceSpan> rank_span(ranks);
    // 8 bytes a piece, in blocks never copied as they grow (range_table.hpp, chunked_array.hpp):
    // SQLite's create_drop_index_1 has 10^8 ranges in distinct runs.
    BasicRangeTable<ChunkedArray<std::uint64_t>> piece_range;
    std::vector<std::uint8_t> piece_access;
    {
        EventAccessIntervals intervals;
        struct RunSpan {
            std::uint32_t site_count;
            PieceSpan span;
        };
        std::vector<RunSpan> run_spans;
        FlatIdMap run_of_first_site;
        for (std::uint32_t rank = 0; rank < ranks; ++rank) {
            const Event& ev = g.event(event_of_rank[rank]);
            if (ev.kind != EventKind::Computation || ev.site_count == 0) continue;
            const auto [run, inserted] = run_of_first_site.try_emplace(
                ev.first_site, static_cast<std::uint32_t>(run_spans.size()));
            if (!inserted && run_spans[run].site_count == ev.site_count) {
                rank_span[rank] = run_spans[run].span;
                continue;
            }
            const auto begin = static_cast<std::uint32_t>(piece_range.size());
            intervals.for_each(
                trace, ev,
                [&](std::uint64_t lo, std::uint64_t hi, auto&& keep) {
                    if (lo < hi) shared.clip(lo, hi, keep);
                },
                [&](std::uint64_t lo, std::uint64_t hi, std::uint8_t access) {
                    piece_range.push_back({lo, hi});
                    piece_access.push_back(access);
                });
            rank_span[rank] = {begin, static_cast<std::uint32_t>(piece_range.size())};
            if (inserted) run_spans.push_back({ev.site_count, rank_span[rank]});
        }
    }
    piece_access.shrink_to_fit();

    // Elementary segments: the address line cut at every interval end point, and at the
    // borders of private storage so that a segment is private to two processes entirely or
    // not at all. An interval covers the segments [first, last). The end points repeat (events
    // touch the same bytes again): they are sorted and made distinct a batch at a time, merged
    // into the distinct ones so far, instead of two words a piece at once.
    std::vector<std::uint64_t> bounds, batch, merged;
    const auto settle = [&] {
        std::sort(batch.begin(), batch.end());
        batch.erase(std::unique(batch.begin(), batch.end()), batch.end());
        merged.resize(bounds.size() + batch.size());
        merged.erase(std::set_union(bounds.begin(), bounds.end(), batch.begin(), batch.end(),
                                    merged.begin()),
                     merged.end());
        bounds.swap(merged);
        batch.clear();
    };
    for (std::size_t k = 0; k < piece_range.size(); ++k) {
        const Interval range = piece_range[k];
        batch.push_back(range.lo);
        batch.push_back(range.hi);
        if (batch.size() >= std::max<std::size_t>(std::size_t{1} << 22, bounds.size())) settle();
    }
    if (!piece_range.empty()) {
        for (const OsThread& t : trace.os_threads)
            for (std::uint64_t b : {t.stack.lo, t.stack.hi, t.tls.lo, t.tls.hi})
                batch.push_back(b);
        for (const Process& p : trace.processes)
            if (p.os_thread != kNone) batch.push_back(p.private_below);
    }
    settle();
    std::vector<std::uint64_t>().swap(batch);
    std::vector<std::uint64_t>().swap(merged);
    const auto segments = static_cast<std::uint32_t>(bounds.empty() ? 0 : bounds.size() - 1);
    struct SegmentSpan {
        std::uint32_t first, last;
    };
    // An event's intervals ascend, so each end point is searched from the previous one's
    // segment by galloping: the cost follows the distance, mostly within the cache, not a
    // binary search over all bounds per end point (lbzip2: 1.5·10^7 bounds, 117 MB).
    std::vector<SegmentSpan> piece_segments(piece_range.size());
    const auto bound_count = static_cast<std::uint32_t>(bounds.size());
    std::uint32_t placed = 0; // pieces [0, placed) have their segments (spans are appended)
    for (std::uint32_t rank = 0; rank < ranks; ++rank) {
        if (rank_span[rank].end <= placed) continue; // empty, or a shared span placed before
        placed = rank_span[rank].end;
        std::uint32_t at = 0;
        auto segment_of = [&](std::uint64_t address) {
            at = first_false(at, bound_count, [&](std::uint32_t j) { return bounds[j] < address; });
            return at;
        };
        for (std::uint32_t k = rank_span[rank].begin; k < rank_span[rank].end; ++k) {
            const Interval range = piece_range[k];
            const std::uint32_t first = segment_of(range.lo);
            piece_segments[k] = {first, segment_of(range.hi)};
        }
    }
    piece_range.clear();

    // Only a segment that two slots touch, one of them writing, can hold a conflict; the
    // others get no incidences (xz -T4: each worker's own buffers, 10^7 incidences of 10^4
    // live). kManySlots marks a segment of two slots or more.
    constexpr std::uint32_t kManySlots = kNone - 1;
    std::vector<std::uint32_t> segment_slot(segments, kNone);
    std::vector<std::uint8_t> segment_written(segments, 0);
    for (std::uint32_t rank = 0; rank < ranks; ++rank)
        for (std::uint32_t k = rank_span[rank].begin; k < rank_span[rank].end; ++k)
            for (std::uint32_t seg = piece_segments[k].first; seg < piece_segments[k].last; ++seg) {
                std::uint32_t& slot = segment_slot[seg];
                if (slot == kNone)
                    slot = slot_of_rank[rank];
                else if (slot != slot_of_rank[rank])
                    slot = kManySlots;
                segment_written[seg] |= piece_access[k] & kAnyWrite;
            }
    auto live = [&](std::uint32_t seg) {
        return segment_slot[seg] == kManySlots && segment_written[seg] != 0;
    };
    // The incidences of live segments, segment-major and by rank within a segment: counted,
    // then placed (a counting sort on the segment, filled in rank order), so the array is
    // allocated once at its size and needs no sort.
    std::vector<std::uint32_t> segment_first(std::size_t(segments) + 1, 0);
    for (std::uint32_t rank = 0; rank < ranks; ++rank) // by rank: a shared piece is each rank's
        for (std::uint32_t k = rank_span[rank].begin; k < rank_span[rank].end; ++k)
            for (std::uint32_t seg = piece_segments[k].first; seg < piece_segments[k].last; ++seg)
                if (live(seg)) ++segment_first[seg + 1];
    for (std::uint32_t seg = 0; seg < segments; ++seg)
        segment_first[seg + 1] += segment_first[seg];
    std::vector<std::uint32_t> incidence_rank(segment_first[segments]);
    std::vector<std::uint8_t> incidence_access(segment_first[segments]);
    const auto incidence = [&](std::uint32_t i) {
        return Incidence{incidence_rank[i], incidence_access[i]};
    };
    {
        std::vector<std::uint32_t> fill(segment_first.begin(), segment_first.end() - 1);
        for (std::uint32_t rank = 0; rank < ranks; ++rank)
            for (std::uint32_t k = rank_span[rank].begin; k < rank_span[rank].end; ++k)
                for (std::uint32_t seg = piece_segments[k].first; seg < piece_segments[k].last;
                     ++seg)
                    if (live(seg)) {
                        incidence_rank[fill[seg]] = rank;
                        incidence_access[fill[seg]++] = piece_access[k];
                    }
    }
    std::vector<std::uint32_t>().swap(segment_slot);

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
        // Its bitmaps when it is dense and plain (dense_group_bitmaps.hpp): kNone if not,
        // kUnbuilt until a window first reaches it, else their id.
        std::uint32_t bitmap = kNone;
    };
    constexpr std::uint32_t kUnbuilt = kNone - 1;
    // The bitmaps of dense groups count only the ranks of events with accesses (fork/join
    // waves: a third of the events; the others are synchronization): ranks [lo, hi) are the
    // bits [accessor_index[lo], accessor_index[hi]).
    std::vector<std::uint32_t> accessor_index(std::size_t(ranks) + 1, 0);
    std::vector<EventId> event_of_accessor;
    for (std::uint32_t rank = 0; rank < ranks; ++rank) {
        accessor_index[rank] = static_cast<std::uint32_t>(event_of_accessor.size());
        if (rank_span[rank].begin != rank_span[rank].end)
            event_of_accessor.push_back(event_of_rank[rank]);
    }
    accessor_index[ranks] = static_cast<std::uint32_t>(event_of_accessor.size());
    // A segment of few incidences (real programs' long buffers: 7-Zip's 8.6·10^6 segments of
    // ~14 incidences in ~3 slot groups, most of one incidence) keeps no group records: its
    // groups are the runs of one slot in its incidences, found as they are read (ranks are
    // slot-major), and a reader filters its writers on the way. Only segments without atomic
    // accesses (the reduced visits list the groups of atomic segments) and without a group
    // the bitmaps would read (DESIGN-NOTES "Segments without group records").
    const auto slot_run_end = [&](std::uint32_t i, std::uint32_t last) {
        const std::uint32_t slot = slot_of_rank[incidence_rank[i]];
        std::uint32_t end = i + 1;
        while (end < last && slot_of_rank[incidence_rank[end]] == slot)
            ++end;
        return end;
    };
    std::vector<bool> explicit_segment(segments, false);
    std::size_t group_count = 0, writer_count = 0;
    for (std::uint32_t seg = 0; seg < segments; ++seg) {
        const std::uint32_t first = segment_first[seg], last = segment_first[seg + 1];
        if (first == last) continue;
        bool keep = last - first > dense.max_implicit_incidences;
        std::size_t runs = 0, writers = 0;
        for (std::uint32_t i = first; i < last;) {
            const std::uint32_t end = slot_run_end(i, last);
            bool atomic = false;
            for (std::uint32_t j = i; j < end; ++j) {
                writers += (incidence_access[j] & kAnyWrite) != 0;
                atomic = atomic || (incidence_access[j] & (kAtomicRead | kAtomicWrite)) != 0;
            }
            keep = keep || atomic ||
                   dense.dense(end - i, accessor_index[incidence_rank[i]],
                               accessor_index[incidence_rank[end - 1]]);
            ++runs;
            i = end;
        }
        if (!keep) continue;
        explicit_segment[seg] = true;
        group_count += runs;
        writer_count += writers;
    }
    std::vector<SlotGroup> groups;
    groups.reserve(group_count);
    std::vector<std::uint32_t> segment_groups(std::size_t(segments) + 1, 0); // CSR into groups
    std::vector<std::uint32_t> writer_incidences; // exactly sized: up to 4 bytes an incidence
    writer_incidences.reserve(writer_count);
    std::vector<std::uint32_t> writer_groups; // per segment, the groups that write it
    std::vector<std::uint32_t> segment_writer_groups(std::size_t(segments) + 1, 0);
    for (std::uint32_t seg = 0; seg < segments; ++seg) {
        for (std::uint32_t i = segment_first[seg];
             explicit_segment[seg] && i < segment_first[seg + 1];) {
            const SlotId slot(slot_of_rank[incidence_rank[i]]);
            SlotGroup group{slot, i, i, static_cast<std::uint32_t>(writer_incidences.size()), 0};
            group.cursor = i;
            group.wcursor = group.wfirst;
            bool atomic = false;
            for (; i < segment_first[seg + 1] && slot_of_rank[incidence_rank[i]] == slot.value;
                 ++i) {
                if (incidence_access[i] & kAnyWrite) writer_incidences.push_back(i);
                atomic = atomic || (incidence_access[i] & (kAtomicRead | kAtomicWrite)) != 0;
            }
            group.last = i;
            if (!atomic &&
                dense.dense(group.last - group.first, accessor_index[incidence_rank[group.first]],
                            accessor_index[incidence_rank[group.last - 1]]))
                group.bitmap = kUnbuilt;
            group.wlast = static_cast<std::uint32_t>(writer_incidences.size());
            if (group.wlast > group.wfirst)
                writer_groups.push_back(static_cast<std::uint32_t>(groups.size()));
            groups.push_back(group);
        }
        segment_groups[seg + 1] = static_cast<std::uint32_t>(groups.size());
        segment_writer_groups[seg + 1] = static_cast<std::uint32_t>(writer_groups.size());
    }
    std::vector<bool>().swap(explicit_segment);

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
        // The window's events are of one process (a slot's chain is its processes' events one
        // process after the other), and whether that process is below x's: then every partner
        // there is found from its side (fork/join waves: a slot holds a process of every wave,
        // so slot_last_process does not skip the lower half of the windows).
        bool one_process = false;
        bool below = false;
        EventId lo_event; // the event of rank lo
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
        w = SlotWindow{};
        w.stamp = x.value;
        w.process = px;
        w.lo = slot_base[q.value] + lo;
        w.hi = slot_base[q.value] + hi;
        if (w.lo < w.hi) {
            w.lo_event = event_of_rank[w.lo];
            const ProcessId first = g.event_process(w.lo_event);
            w.one_process = first == g.event_process(event_of_rank[w.hi - 1]);
            w.below = w.one_process && first < px;
        }
        return w;
    };

    // f(slot, first, last) for each group of a segment without group records: the runs of one
    // slot in its incidences, each found by galloping to the slot's last rank.
    auto for_each_slot_run = [&](std::uint32_t seg, auto&& f) {
        const std::uint32_t end = segment_first[seg + 1];
        for (std::uint32_t i = segment_first[seg]; i < end;) {
            const std::uint32_t slot = slot_of_rank[incidence_rank[i]];
            const std::uint32_t next_slot = slot_base[slot + 1];
            const std::uint32_t last = first_false(
                i + 1, end, [&](std::uint32_t j) { return incidence_rank[j] < next_slot; });
            f(SlotId(slot), i, last);
            i = last;
        }
    };

    const std::uint32_t event_count = g.event_count();
    const IncidenceArrays incidences{&incidence_rank, &incidence_access};
    const AtomicPartnerLists atomic_lists(g, event_of_rank, incidences, segment_first, groups,
                                          segment_groups, writer_incidences, rank_span,
                                          piece_segments, piece_access, atomic_pair_budget,
                                          window_of, for_each_slot_run, dense.window_list_factor);
    for (SlotWindow& w : windows) // the lists' pass moved them: the sweep starts afresh
        w = SlotWindow{};
    // Processes sharing an OS thread (private storage): the reduced visit is not for them.
    std::vector<std::uint8_t> shares_os_thread(trace.processes.size(), 0);
    {
        std::vector<std::uint32_t> on_thread(trace.os_threads.size(), 0);
        for (const Process& p : trace.processes)
            if (p.os_thread != kNone) ++on_thread[p.os_thread];
        for (std::size_t p = 0; p < trace.processes.size(); ++p)
            shares_os_thread[p] = trace.processes[p].os_thread != kNone &&
                                  on_thread[trace.processes[p].os_thread] > 1;
    }

    // Partners of the current x: a mark bit and the OR of the flags per event.
    std::vector<std::uint64_t> marked((event_count + 63) / 64, 0);
    std::vector<std::uint8_t> partner_flags(event_count, 0);
    std::vector<std::uint32_t> partners;
    std::vector<std::uint32_t> rank_of_event(event_count, kNone);
    for (std::uint32_t rank = 0; rank < event_of_rank.size(); ++rank)
        rank_of_event[event_of_rank[rank].value] = rank;
    // The atomic-only pairs found from the side of their b (an earliest partner of a lower
    // process), merged into the result at the end; and x's reduced visits, whose atomic
    // incidences the flags of x's races still need (see below).
    std::vector<ApparentRace> from_b_side;
    struct ReducedVisit {
        SlotId slot;
        std::uint32_t first, last; // members of the list of x's atomic-only partners, in x's window
        std::uint8_t x_access;
    };
    std::vector<ReducedVisit> reduced;

    auto flags_of = [](std::uint8_t x_access, std::uint8_t y_access) {
        std::uint8_t flags = 0;
        if ((x_access & kAnyWrite) && (y_access & kAnyRead)) flags |= 1;
        if ((y_access & kAnyWrite) && (x_access & kAnyRead)) flags |= 2;
        if (races_on(x_access, y_access)) flags |= 4;
        return flags;
    };

    auto add_partner = [&](EventId y, std::uint8_t flags) {
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
    // x's partners in dense groups, by rank (dense_group_bitmaps.hpp), and the slots whose
    // windows hold some.
    DenseGroupBitmaps bitmaps;
    WindowPartnerWords bitmap_partners(static_cast<std::uint32_t>(event_of_accessor.size()));
    struct BitmapWindow {
        SlotId slot;
        WordRange words; // the accumulators' words x's groups reached in the slot's window
    };
    std::vector<BitmapWindow> bitmap_windows;
    IdVector<SlotId, std::uint32_t> bitmap_window_of_slot(g.slot_count(), kNone);

    // x's windows of unordered ranks that hold partners it finds (another slot, a process at
    // least x's and not the window of one lower process), ascending.
    struct RankWindow {
        std::uint32_t lo, hi;
    };
    std::vector<RankWindow> x_windows;

    UnorderedConflicts result;
    for (const EventId x : g.events()) {
        if (progress && (x.value & 0x3fff) == 0)
            progress("apparent races", double(x.value) / double(event_count));
        const std::uint32_t rank = rank_of_event[x.value];
        if (rank == kNone || rank_span[rank].begin == rank_span[rank].end) continue;
        const ProcessId px = g.event_process(x);
        const SlotId sx = g.event_slot(x);
        const std::uint32_t os_thread = trace.processes[px.value].os_thread;
        const bool may_reduce = !atomic_lists.linked(rank) && !shares_os_thread[px.value];
        partners.clear();
        reduced.clear();
        // On segments without group records, x visits the incidences inside its windows. When
        // those segments hold many incidences (7-Zip: 2.2·10^9 in 1.2·10^8 visits, 3.3 slot
        // runs a visit, nearly all of x's own slot, of lower processes or outside the
        // windows), x's windows in every slot are listed first, by rank, and each visit
        // gallops to them instead of finding every run's end.
        const bool listed_windows =
            lists_windows(dense.window_list_factor, g.slot_count(), rank_span[rank], piece_segments,
                          segment_groups, segment_first);
        if (listed_windows) {
            x_windows.clear();
            for (const SlotId q : g.slots()) { // slot-major ranks: the windows ascend
                if (q == sx || slot_last_process[q] < px) continue;
                const SlotWindow& w = window_of(x, px, q);
                if (w.lo != w.hi && !w.below) x_windows.push_back({w.lo, w.hi});
            }
        }
        for (std::uint32_t k = rank_span[rank].begin; k < rank_span[rank].end; ++k)
            for (std::uint32_t seg = piece_segments[k].first; seg < piece_segments[k].last; ++seg) {
                if (segment_first[seg] == segment_first[seg + 1]) continue; // no conflict there
                const std::uint8_t x_access = piece_access[k];
                const bool x_writes = (x_access & kAnyWrite) != 0;
                const Interval segment_range{bounds[seg], bounds[seg + 1]};
                auto visit = [&](const Incidence& yi) {
                    const EventId y = event_of_rank[yi.rank];
                    const ProcessId py = g.event_process(y);
                    if (py < px) return; // found from y's side
                    // Only processes of one OS thread can share private storage: the check
                    // costs nothing for the others.
                    if (os_thread != kNone && os_thread == trace.processes[py.value].os_thread &&
                        trace.private_to_both(px.value, py.value, segment_range))
                        return;
                    add_partner(y, flags_of(x_access, yi.access));
                };
                if (may_reduce && atomic_lists.reduces(seg, x_access)) {
                    // x is not linked and accesses the segment atomically only: its races
                    // (plain partners), its linked partners, and its earliest atomic-only
                    // partner in each other process (AtomicPartnerLists).
                    for (std::uint32_t gi = segment_groups[seg]; gi < segment_groups[seg + 1];
                         ++gi) {
                        const SlotId slot = groups[gi].slot;
                        if (slot == sx) continue;
                        const SlotWindow& w = window_of(x, px, slot);
                        if (w.lo == w.hi) continue;
                        const bool higher = slot_last_process[slot] >= px;
                        auto visit_list = [&](AtomicPartnerLists::Kind kind) {
                            const auto [first, last] =
                                atomic_lists.in_window(seg, gi, kind, w.lo, w.hi);
                            for (std::uint32_t i = first; i < last; ++i)
                                visit(incidences[atomic_lists.member(i)]);
                        };
                        if (higher) {
                            visit_list(atomic_lists.races_of(x_access));
                            visit_list(atomic_lists.linked_atomic_of(x_access));
                        }
                        auto keep_earliest = [&](AtomicPartnerLists::Kind kind) {
                            const auto [first, last] =
                                atomic_lists.in_window(seg, gi, kind, w.lo, w.hi);
                            if (first == last) return;
                            if (kind == atomic_lists.atomic_of(x_access) && higher)
                                reduced.push_back({slot, first, last, x_access});
                            // the first of the window, and the first x -> y allowed by the
                            // clocks (dependence_allowed: not finished before x started; a
                            // suffix along y's process, the only one in x's windows)
                            const std::uint64_t x_start = g.event(x).clock_start;
                            const std::uint32_t allowed =
                                atomic_lists.partition_point(first, last, [&](const Incidence& yi) {
                                    return g.event(event_of_rank[yi.rank]).clock_finish < x_start;
                                });
                            auto keep = [&](std::uint32_t i) {
                                const Incidence& yi = incidences[atomic_lists.member(i)];
                                const EventId y = event_of_rank[yi.rank];
                                if (g.event_process(y) > px) {
                                    visit(yi);
                                } else {
                                    const std::uint8_t flags = flags_of(yi.access, x_access);
                                    from_b_side.push_back(
                                        {y, x, (flags & 1) != 0, (flags & 2) != 0});
                                }
                            };
                            keep(first);
                            const bool keep_allowed = allowed != first && allowed != last;
                            if (keep_allowed) keep(allowed);
                            // a linked x (over the budget) drops the rest: a chain through x
                            // may need them, so the dependences treat x conservatively
                            if (atomic_lists.approximate() && atomic_lists.was_linked(rank) &&
                                last - first > 1u + keep_allowed) {
                                if (result.approximated.empty())
                                    result.approximated.assign(event_count, false);
                                result.approximated[x.value] = true;
                            }
                        };
                        keep_earliest(atomic_lists.atomic_of(x_access));
                        if (x_access & kAtomicWrite)
                            keep_earliest(AtomicPartnerLists::kAtomicReaders);
                    }
                    continue;
                }
                auto scan_group = [&](SlotGroup& group) {
                    if (group.slot == sx || slot_last_process[group.slot] < px) return;
                    const SlotWindow& w = window_of(x, px, group.slot);
                    if (w.lo == w.hi || w.below) return;
                    if (group.bitmap != kNone && !shares_os_thread[px.value]) {
                        // no private storage to check: x's process has its OS thread alone
                        if (group.bitmap == kUnbuilt)
                            group.bitmap = bitmaps.build(
                                group.last - group.first,
                                [&](std::uint32_t i) {
                                    return accessor_index[incidence_rank[group.first + i]];
                                },
                                [&](std::uint32_t i) { return incidence_access[group.first + i]; });
                        const WordRange words =
                            bitmap_partners.add(bitmaps, group.bitmap, x_access,
                                                accessor_index[w.lo], accessor_index[w.hi]);
                        if (words.first == words.last) return;
                        std::uint32_t& at = bitmap_window_of_slot[group.slot];
                        if (at >= bitmap_windows.size() || bitmap_windows[at].slot != group.slot) {
                            at = static_cast<std::uint32_t>(bitmap_windows.size());
                            bitmap_windows.push_back({group.slot, words});
                        } else {
                            bitmap_windows[at].words.join(words);
                        }
                        return;
                    }
                    if (x_writes) {
                        for (std::uint32_t i =
                                 seek(group.cursor, group.first, group.last, w.lo,
                                      [&](std::uint32_t j) { return incidence_rank[j]; });
                             i != group.last && incidence_rank[i] < w.hi; ++i)
                            visit(incidence(i));
                    } else {
                        auto rank_at = [&](std::uint32_t j) {
                            return incidence_rank[writer_incidences[j]];
                        };
                        for (std::uint32_t i =
                                 seek(group.wcursor, group.wfirst, group.wlast, w.lo, rank_at);
                             i != group.wlast && rank_at(i) < w.hi; ++i)
                            visit(incidence(writer_incidences[i]));
                    }
                };
                if (segment_groups[seg] == segment_groups[seg + 1] && listed_windows) {
                    // no group records: scan_group's visits, window by window
                    const std::uint32_t end = segment_first[seg + 1];
                    std::uint32_t i = segment_first[seg];
                    for (const RankWindow& w : x_windows) {
                        i = first_false(i, end,
                                        [&](std::uint32_t j) { return incidence_rank[j] < w.lo; });
                        for (; i < end && incidence_rank[i] < w.hi; ++i)
                            if (x_writes || (incidence_access[i] & kAnyWrite)) visit(incidence(i));
                        if (i == end) break;
                    }
                } else if (segment_groups[seg] == segment_groups[seg + 1]) {
                    // no group records: scan_group's visits, a run of one slot at a time
                    for_each_slot_run(
                        seg, [&](SlotId slot, std::uint32_t first, std::uint32_t last) {
                            if (slot == sx || slot_last_process[slot] < px) return;
                            const SlotWindow& w = window_of(x, px, slot);
                            if (w.lo == w.hi || w.below) return;
                            for (std::uint32_t i = first_false(
                                     first, last,
                                     [&](std::uint32_t j) { return incidence_rank[j] < w.lo; });
                                 i < last && incidence_rank[i] < w.hi; ++i)
                                if (x_writes || (incidence_access[i] & kAnyWrite))
                                    visit(incidence(i));
                        });
                } else if (x_writes) {
                    for (std::uint32_t gi = segment_groups[seg]; gi < segment_groups[seg + 1]; ++gi)
                        scan_group(groups[gi]);
                } else {
                    for (std::uint32_t wi = segment_writer_groups[seg];
                         wi < segment_writer_groups[seg + 1]; ++wi)
                        scan_group(groups[writer_groups[wi]]);
                }
            }
        auto emit_race = [&](EventId y, std::uint8_t flags) {
            ApparentRace race;
            race.a = x;
            race.b = y;
            race.a_writes_b_reads = (flags & 1) != 0;
            race.b_writes_a_reads = (flags & 2) != 0;
            if (flags & 4)
                result.races.push_back(race);
            else
                push_back_on_huge_pages(result.atomic_only, race);
        };
        // Partners from bitmaps only, each window of one process (fork/join waves): a window
        // is then a range of event ids, the windows' ranges are disjoint, and x's races are
        // the windows read out in the order of their first events, without marks.
        if (partners.empty() && reduced.empty() &&
            std::all_of(bitmap_windows.begin(), bitmap_windows.end(),
                        [&](const BitmapWindow& b) { return windows[b.slot].one_process; })) {
            std::sort(bitmap_windows.begin(), bitmap_windows.end(),
                      [&](const BitmapWindow& l, const BitmapWindow& r) {
                          return windows[l.slot].lo_event < windows[r.slot].lo_event;
                      });
            for (const BitmapWindow& b : bitmap_windows) {
                const SlotWindow& w = windows[b.slot];
                bitmap_partners.drain(accessor_index[w.lo], accessor_index[w.hi], b.words,
                                      [&](std::uint32_t i, std::uint8_t flags) {
                                          emit_race(event_of_accessor[i], flags);
                                      });
            }
            bitmap_windows.clear();
            continue;
        }
        for (const BitmapWindow& b : bitmap_windows) {
            const SlotWindow& w = windows[b.slot]; // x's, as the stamp says
            const bool check_process = !w.one_process;
            bitmap_partners.drain(accessor_index[w.lo], accessor_index[w.hi], b.words,
                                  [&](std::uint32_t i, std::uint8_t flags) {
                                      const EventId y = event_of_accessor[i];
                                      if (check_process && g.event_process(y) < px) return;
                                      add_partner(y, flags);
                                  });
        }
        bitmap_windows.clear();
        // A race of x found on another segment may also conflict where x's visit was reduced:
        // its flags take those atomic accesses too (x's races are all of its one partner
        // process, their count is the output's).
        if (!reduced.empty())
            for (const std::uint32_t y : partners) {
                if (!(partner_flags[y] & 4)) continue;
                const std::uint32_t y_rank = rank_of_event[y];
                for (const ReducedVisit& r : reduced) {
                    if (slot_of_rank[y_rank] != r.slot.value) continue;
                    const std::uint32_t j = atomic_lists.find_rank(r.first, r.last, y_rank);
                    if (j != r.last)
                        partner_flags[y] |=
                            flags_of(r.x_access, incidences[atomic_lists.member(j)].access);
                }
            }
        // x's partners in event order: from the mark bits when they are dense, else sorted.
        auto emit = [&](std::uint32_t y) { emit_race(EventId(y), partner_flags[y]); };
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
    merge_atomic_pairs(result, std::move(from_b_side));
    if (progress) progress("apparent races", 1.0);
    return result;
}

} // namespace firstrace
