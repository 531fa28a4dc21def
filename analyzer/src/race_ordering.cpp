// The race ordering of thesis ch. 8 as named stages (race_ordering.hpp gives the idea):
//   1. RaceEvents           the events that take part in races, on their chains, and per race
//                           event e and chain q the race event where e's Ê* reach enters q:
//                           race x = <a,b> enters q at T_x[q] = max(entry_a[q], entry_b[q])
//   2. RaceEventGraph       the graph H of race events alone: e -> the next race event of its
//                           chain, and e -> min over its races x of T_x[q] for every chain q;
//                           reachability between race events in H is that of the graph of
//                           races and race events (race_ordering.hpp), which H stands for
//   3. strong_components    the components of H (strong_components.hpp), reverse topological
//   4. ChainReach           per component of H, the earliest position reached in each chain
//   5. classify_races       a race lies in the component of its event a (or b) iff it reaches
//                           a (or b) back; otherwise it is a partition of its own (Def 8.2)
//   6. partition_hasse_diagram   the DAG of partitions: the Hasse diagram of R̂* between them;
//                           the first partitions are those without a predecessor (Thm 8.2: each
//                           holds a feasible race)
//   7. number_partitions    ids in Kahn's topological order, first partitions first
// Each stage looks at a race a constant number of times with O(p) work on rows of the race
// events, which are few (the events) while races are many (quadratic in dense traces): two
// sequential passes over the races (2 and 5; 6 makes a third when the partitions of the races
// of each event change often, which dense traces' do not) and nothing stored per race but its
// partition.
#include "race_ordering.hpp"

#include <algorithm>
#include <limits>
#include <queue>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "analysis_ids.hpp"
#include "strong_components.hpp"

namespace firstrace {
namespace {

// Ê* (G plus the direct event-control edges moved to start -> start, end of thesis 8.2) as
// earliest-reach timestamps: earliest(n, q) is the first position of chain q whose event's
// start n reaches by a non-empty path.
EarliestReach event_control_reach(const TemporalGraph& g,
                                  const std::vector<DependenceEdge>& direct) {
    std::vector<Edge> edges = g.edges();
    for (const auto& e : direct)
        edges.emplace_back(g.start_node(e.from), g.start_node(e.to));
    const NodeGraph ehat = NodeGraph::from_edges(g.node_count(), std::move(edges));
    return EarliestReach(g, ehat, strong_components(ehat));
}

// The events of races, numbered 0..k-1 in (chain, position) order, and per race event e and
// chain q the race event entry(e)[q] where Ê* from e's start enters chain q: the first race
// event at or after position er(e_s)[q] (kNone: none), e itself on its own chain. Race x = <a,b>
// R̂-orders the events of q from m_x[q] = max(er(a_s)[q], er(b_s)[q]) on (Def 8.1), and "the first
// race event at or after position j" is monotone in j with kNone above every index, so the race
// event where x enters q is T_x[q] = max(entry(a)[q], entry(b)[q]). An event of no race enters no
// race, so a path through it can only go on along its chain, and the next race event of the chain
// stands for it.
class RaceEvents {
  public:
    RaceEvents(const TemporalGraph& g, const ApparentRaceList& races, const EarliestReach& reach)
        : p_(g.slot_count()), races_(races), race_event_of_(g.event_count(), kNone) {
        constexpr std::uint32_t kInRace = kNone - 1; // until numbered
        races.for_each([&](std::uint32_t, EventId a, EventId b) {
            race_event_of_[a.value] = race_event_of_[b.value] = kInRace;
        });
        chain_begin_.reserve(p_ + 1);
        for (const SlotId q : g.slots()) {
            chain_begin_.push_back(static_cast<std::uint32_t>(position_.size()));
            for (const EventId e : g.slot_events(q))
                if (race_event_of_[e.value] == kInRace) {
                    race_event_of_[e.value] = static_cast<std::uint32_t>(position_.size());
                    position_.push_back(g.event_slot_position(e));
                    slot_.push_back(q);
                    event_.push_back(e);
                }
        }
        chain_begin_.push_back(static_cast<std::uint32_t>(position_.size()));
        if (position_.size() >= kInRace)
            throw std::length_error("race ordering: " + std::to_string(position_.size()) +
                                    " race events are more than the ordering stage can number");
        // Per chain position: the first race event at or after it.
        std::vector<std::vector<std::uint32_t>> first_from(p_);
        for (const SlotId q : g.slots()) {
            const auto& chain = g.slot_events(q);
            auto& first = first_from[q.value];
            first.resize(chain.size());
            std::uint32_t next = kNone;
            for (std::size_t i = chain.size(); i-- > 0;) {
                if (race_event_of_[chain[i].value] != kNone) next = race_event_of_[chain[i].value];
                first[i] = next;
            }
        }
        entry_.resize(std::size_t(count()) * p_);
        for (std::uint32_t v = 0; v < count(); ++v)
            for (std::uint32_t q = 0; q < p_; ++q) {
                const std::uint32_t j = reach.earliest(g.start_node(event_[v]), SlotId(q));
                std::uint32_t entry = j < first_from[q].size() ? first_from[q][j] : kNone;
                // Ê* is reflexive (Def 8.1 as Lemma 8.1's proof uses it: b Ê b): v enters its
                // own chain at itself, unless a cycle reaches further back.
                if (q == slot_[v].value) entry = std::min(entry, v);
                entry_[std::size_t(v) * p_ + q] = entry;
            }
        number_entry_classes();
    }

    std::uint32_t count() const { return static_cast<std::uint32_t>(position_.size()); }
    std::uint32_t chains() const { return p_; }
    SlotId slot(std::uint32_t v) const { return slot_[v]; }
    std::uint32_t position(std::uint32_t v) const { return position_[v]; }
    // The race events of race x: (a, b). A search for x's run of a: for a race now and then.
    std::pair<std::uint32_t, std::uint32_t> of_race(RaceId x) const {
        const ApparentRace r = races_[x.value];
        return {race_event_of_[r.a.value], race_event_of_[r.b.value]};
    }
    // The events of G: their number, the race event of each (kNone: none), and f(index of the
    // run's first race, a, b's as [b, b_end)) for every run of races with one a, as events of G.
    std::uint32_t event_count() const { return static_cast<std::uint32_t>(race_event_of_.size()); }
    std::uint32_t race_event(std::uint32_t event) const { return race_event_of_[event]; }
    template <class F> void for_each_event_run(F&& f) const {
        races_.for_each_run([&](std::uint32_t first, EventId a, const std::uint32_t* b,
                                const std::uint32_t* b_end) { f(first, a.value, b, b_end); });
    }
    // f(x, race event a, race event b) for every race x in order.
    template <class F> void for_each_race(F&& f) const {
        races_.for_each([&](std::uint32_t x, EventId a, EventId b) {
            f(RaceId(x), race_event_of_[a.value], race_event_of_[b.value]);
        });
    }
    // The next race event of v's chain (kNone: v is its last).
    std::uint32_t chain_next(std::uint32_t v) const {
        return v + 1 < chain_begin_[slot_[v].value + 1] ? v + 1 : kNone;
    }
    // One past the last race event of chain q (those of q are consecutive).
    std::uint32_t chain_end(std::uint32_t q) const { return chain_begin_[q + 1]; }
    // T_x[q] for every chain q: where race x enters the chains.
    void race_entries(RaceId x, std::uint32_t* out) const {
        const auto [a, b] = of_race(x);
        pair_entries(a, b, out);
    }
    // max(entry(a)[q], entry(b)[q]) for every chain q.
    void pair_entries(std::uint32_t a, std::uint32_t b, std::uint32_t* out) const {
        const std::uint32_t* ea = entries(a);
        const std::uint32_t* eb = entries(b);
        for (std::uint32_t q = 0; q < p_; ++q)
            out[q] = std::max(ea[q], eb[q]);
    }
    // entry(v): p race events, one per chain.
    const std::uint32_t* entries(std::uint32_t v) const { return &entry_[std::size_t(v) * p_]; }
    // Race events of one chain with equal entries form a class: two races with the same a and
    // b's of one class have the same T_x (dense traces: the events of a wave, whose Ê reaches
    // all the others, share a handful of classes).
    std::uint32_t entry_class(std::uint32_t v) const { return entry_class_[v]; }
    std::uint32_t entry_class_count() const { return entry_class_count_; }

  private:
    void number_entry_classes() {
        struct RowHash {
            const RaceEvents* events;
            std::size_t operator()(std::uint32_t v) const {
                std::uint64_t h = events->slot_[v].value * 0x9e3779b97f4a7c15ull;
                const std::uint32_t* e = events->entries(v);
                for (std::uint32_t q = 0; q < events->p_; ++q)
                    h = (h ^ e[q]) * 0x100000001b3ull;
                return static_cast<std::size_t>(h ^ (h >> 29));
            }
        };
        struct RowEqual {
            const RaceEvents* events;
            bool operator()(std::uint32_t u, std::uint32_t v) const {
                return events->slot_[u] == events->slot_[v] &&
                       std::equal(events->entries(u), events->entries(u) + events->p_,
                                  events->entries(v));
            }
        };
        std::unordered_map<std::uint32_t, std::uint32_t, RowHash, RowEqual> class_of(
            count(), RowHash{this}, RowEqual{this});
        entry_class_.resize(count());
        for (std::uint32_t v = 0; v < count(); ++v)
            entry_class_[v] =
                class_of.try_emplace(v, static_cast<std::uint32_t>(class_of.size())).first->second;
        entry_class_count_ = static_cast<std::uint32_t>(class_of.size());
    }

    std::uint32_t p_;
    std::vector<std::uint32_t> chain_begin_; // per chain: its first race event
    std::vector<std::uint32_t> position_;    // per race event: its slot position
    std::vector<SlotId> slot_;               // per race event: its chain
    std::vector<EventId> event_;             // per race event: the event of G
    const ApparentRaceList& races_;
    std::vector<std::uint32_t> race_event_of_; // per event of G: its race event (kNone: none)
    std::vector<std::uint32_t> entry_;         // per race event and chain
    std::vector<std::uint32_t> entry_class_;   // per race event
    std::uint32_t entry_class_count_ = 0;
};

// The graph H on race events: v -> chain_next(v), and v -> out(v)[q] = min over the races x of
// v of T_x[q] for every chain q. In the graph of races and race events (race_ordering.hpp)
// v -> x -> T_x[q] for each race x of v, and T_x[q] is on chain q at or after out(v)[q], which
// reaches it along the chain: so H has a path between two race events exactly when that graph
// has one, with k·(p + 1) edges for k race events instead of r·p for r races.
//
// out(v)[q] = min over v's partners u of max(entry(v)[q], entry(u)[q])
//           = max(entry(v)[q], min over u of entry(u)[q])   (max with a constant is monotone)
// and along a chain entry is monotone (an earlier event's start reaches a later one's, so its
// Ê* reach is at least as early): per chain of partners only the first one counts. So one pass
// over the races records, per race event and chain, its first partner there (O(1) a race, in
// out_'s own rows), and a pass over the race events folds those partners' entries: O(r + s·p)
// for s (race event, partner chain) pairs, s ≤ 2r, instead of O(r·p).
class RaceEventGraph {
  public:
    explicit RaceEventGraph(const RaceEvents& events) : events_(events) {
        const std::uint32_t p = events.chains();
        const std::size_t k = events.count();
        out_.assign(k * p, kNone);
        // Per event of G: its race event and chain, read with one load a race.
        struct EventChain {
            std::uint32_t race_event = kNone, chain = kNone;
        };
        std::vector<EventChain> of_event(events.event_count());
        for (std::uint32_t e = 0; e < events.event_count(); ++e)
            if (const std::uint32_t v = events.race_event(e); v != kNone)
                of_event[e] = {v, events.slot(v).value};
        events.for_each_event_run([&](std::uint32_t, std::uint32_t a_event, const std::uint32_t* b,
                                      const std::uint32_t* b_end) {
            const EventChain a = of_event[a_event];
            std::uint32_t* first_b = &out_[std::size_t(a.race_event) * p];
            for (; b != b_end; ++b) {
                // race events of a chain are numbered in its order
                const EventChain y = of_event[*b];
                first_b[y.chain] = std::min(first_b[y.chain], y.race_event);
                std::uint32_t& first_a = out_[std::size_t(y.race_event) * p + a.chain];
                first_a = std::min(first_a, a.race_event);
            }
        });
        std::vector<std::uint32_t> first(p), earliest(p);
        for (std::uint32_t v = 0; v < events.count(); ++v) {
            std::uint32_t* row = &out_[std::size_t(v) * p];
            std::copy_n(row, p, first.begin());
            std::fill(earliest.begin(), earliest.end(), kNone);
            for (const std::uint32_t u : first) {
                if (u == kNone) continue;
                const std::uint32_t* eu = events.entries(u);
                for (std::uint32_t q = 0; q < p; ++q)
                    earliest[q] = std::min(earliest[q], eu[q]);
            }
            const std::uint32_t* ev = events.entries(v);
            for (std::uint32_t q = 0; q < p; ++q)
                row[q] = std::max(ev[q], earliest[q]);
        }
    }
    std::uint32_t node_count() const { return events_.count(); }
    // Where v's races enter chain q at the earliest (kNone: none).
    std::uint32_t out(std::uint32_t v, std::uint32_t q) const {
        return out_[std::size_t(v) * events_.chains() + q];
    }
    // The successor of v numbered `cursor` or later, advancing the cursor past it; kNone at
    // the end: 0 = the chain's next race event, 1 + q = out(v)[q].
    std::uint32_t next_successor(std::uint32_t v, std::uint32_t& cursor) const {
        if (cursor == 0) {
            ++cursor;
            const std::uint32_t next = events_.chain_next(v);
            if (next != kNone) return next;
        }
        while (cursor <= events_.chains()) {
            const std::uint32_t t = out(v, cursor++ - 1);
            if (t != kNone) return t;
        }
        return kNone;
    }

  private:
    const RaceEvents& events_;
    std::vector<std::uint32_t> out_; // per race event and chain
};

// For every race event v and chain q: the smallest slot position of a race event of q that v
// reaches in H, v itself included (kNone: none). Computed per component of H in reverse
// topological order (ascending ids), so what a component reaches outside itself is final
// before it; every member of a component has its component's row.
class ChainReach {
  public:
    ChainReach(const RaceEvents& events, const RaceEventGraph& h, const StrongComponents& comps)
        : p_(events.chains()), comps_(comps) {
        const std::uint32_t k = events.count();
        // Members grouped by component (a counting sort).
        std::vector<std::uint32_t> begin(comps.count + 1, 0);
        for (std::uint32_t v = 0; v < k; ++v)
            ++begin[comps.of[v] + 1];
        for (std::uint32_t c = 0; c < comps.count; ++c)
            begin[c + 1] += begin[c];
        std::vector<std::uint32_t> members(k);
        {
            std::vector<std::uint32_t> fill(begin.begin(), begin.end() - 1);
            for (std::uint32_t v = 0; v < k; ++v)
                members[fill[comps.of[v]]++] = v;
        }
        reach_.assign(std::size_t(comps.count) * p_, kNone);
        for (std::uint32_t c = 0; c < comps.count; ++c) {
            std::uint32_t* row = &reach_[std::size_t(c) * p_];
            auto add = [&](std::uint32_t t) {
                if (t == kNone || comps.of[t] == c) return; // a member: counted below
                const std::uint32_t* in = &reach_[std::size_t(comps.of[t]) * p_];
                for (std::uint32_t q = 0; q < p_; ++q)
                    row[q] = std::min(row[q], in[q]);
            };
            for (std::uint32_t i = begin[c]; i < begin[c + 1]; ++i) {
                const std::uint32_t v = members[i];
                std::uint32_t& own = row[events.slot(v).value];
                own = std::min(own, events.position(v));
                add(events.chain_next(v));
                for (std::uint32_t q = 0; q < p_; ++q)
                    add(h.out(v, q));
            }
        }
    }
    // The row of race event v (p entries).
    const std::uint32_t* of(std::uint32_t v) const {
        return &reach_[std::size_t(comps_.of[v]) * p_];
    }
    // Folds what the race events `entries` (one per chain, kNone: none) reach into out.
    void fold_entries(const std::uint32_t* entries, std::uint32_t* out) const {
        for (std::uint32_t q = 0; q < p_; ++q)
            if (entries[q] != kNone) {
                const std::uint32_t* in = of(entries[q]);
                for (std::uint32_t s = 0; s < p_; ++s)
                    out[s] = std::min(out[s], in[s]);
            }
    }

  private:
    std::uint32_t p_;
    const StrongComponents& comps_;
    std::vector<std::uint32_t> reach_; // per component and chain
};

// Partitions (Def 8.2), numbered in order of their smallest race. In the graph of races and
// race events a race x = <a,b> has its events as its only predecessors, so x lies on a cycle
// iff it reaches a or b back; then its partition is (the races of) the component of H holding
// that event, and otherwise x is a partition alone. x reaches event v iff one of its entries
// reaches a race event at or before v on v's chain.
struct Partitions {
    PackedIdColumn of_race;                // race -> partition
    std::vector<std::uint32_t> first_race; // per partition: its smallest race
    std::vector<std::uint32_t> race_count; // per partition
    std::size_t count() const { return race_count.size(); }
    // Per partition and chain: where its races enter the chain at the earliest (the minimum of
    // their entries: every later race event of the chain is reached too), the last position of
    // its races' events there, and the earliest race event position it reaches by R̂*.
    std::vector<std::uint32_t> enter, last_position, reach;
    // The partitions of each race event's races (partition_hasse_diagram's input), as changes:
    // (race event, partition) whenever a race of the event, in race order, is in another
    // partition than the event's previous race. Per race event its number of changes
    // (change_count[v + 1], the rest 0), and the changes themselves while they are few
    // (at most of_race.size() / 8 + 1: dense traces, whose races of one event share a
    // partition); otherwise changes_kept is false and they are regenerated from of_race.
    std::vector<std::uint32_t> change_count;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> changes;
    bool changes_kept = true;
};

Partitions classify_races(const RaceEvents& events, const StrongComponents& comps,
                          const ChainReach& chain_reach, std::uint32_t race_count) {
    const std::uint32_t p = events.chains();
    Partitions out;
    out.of_race.reserve(race_count); // filled in race order
    std::vector<std::uint32_t> of_component(comps.count, kNone);
    // Per partition: a race event of its component of H, or kNone for a race alone.
    std::vector<std::uint32_t> anchor;
    std::vector<std::uint32_t> t(p);
    auto new_partition = [&](RaceId x, std::uint32_t race_event) {
        const auto part = static_cast<std::uint32_t>(out.count());
        out.race_count.push_back(0);
        out.first_race.push_back(x.value);
        anchor.push_back(race_event);
        out.enter.resize(out.enter.size() + p, kNone);
        out.last_position.resize(out.last_position.size() + p, kNone);
        return part;
    };
    // x reaches v iff min over q of chain_reach(T_x[q])[slot(v)] <= position(v). T_x depends
    // on a and b's entry class only, and b's class fixes b's chain: so per (a, class of b)
    // whether x reaches a, that minimum for b's chain, and the partition T_x was last folded
    // into (folding T_x again changes nothing) are remembered, and the races of a with the b's
    // of one class cost O(1) each after the first.
    struct AgainstA {
        std::uint32_t a = kNone;
        bool reaches_a = false;
        std::uint32_t b_reach = kNone; // min over q of chain_reach(T_x[q])[slot(b)]
        std::uint32_t folded = kNone;
    };
    std::vector<AgainstA> memo(events.entry_class_count());
    // Per event of G (races give events of G): its race event, entry class and position, and
    // the partition of its previous race (kNone: none yet), side by side so that a race reads
    // one entry for its b. last_position needs an update only when that partition changes: a
    // repeat of (v, part) brings no new position.
    struct EventState {
        std::uint32_t race_event = kNone;
        std::uint32_t entry_class = kNone;
        std::uint32_t position = kNone;
        std::uint32_t last_part = kNone;
    };
    std::vector<EventState> state(events.event_count());
    for (std::uint32_t e = 0; e < events.event_count(); ++e)
        if (const std::uint32_t v = events.race_event(e); v != kNone)
            state[e] = {v, events.entry_class(v), events.position(v), kNone};
    out.change_count.assign(std::size_t(events.count()) + 1, 0);
    const std::size_t kept_at_most = race_count / 8;
    auto note = [&](EventState& event, std::uint32_t part) {
        if (event.last_part == part) return;
        event.last_part = part;
        const std::uint32_t v = event.race_event;
        std::uint32_t& at = out.last_position[std::size_t(part) * p + events.slot(v).value];
        at = at == kNone ? event.position : std::max(at, event.position);
        ++out.change_count[v + 1];
        if (out.changes_kept) {
            if (out.changes.size() <= kept_at_most)
                out.changes.emplace_back(v, part);
            else
                out.changes_kept = false;
        }
    };
    auto earliest_reach = [&](std::uint32_t s) {
        std::uint32_t m = kNone;
        for (std::uint32_t q = 0; q < p; ++q)
            if (t[q] != kNone) m = std::min(m, chain_reach.of(t[q])[s]);
        return m;
    };
    events.for_each_event_run([&](std::uint32_t first_race, std::uint32_t a_event,
                                  const std::uint32_t* b_events, const std::uint32_t* b_end) {
        EventState& a_state = state[a_event];
        const std::uint32_t a = a_state.race_event;
        for (const std::uint32_t* e = b_events; e != b_end; ++e) {
            const RaceId x(first_race + static_cast<std::uint32_t>(e - b_events));
            EventState& b_state = state[*e];
            const std::uint32_t b = b_state.race_event;
            AgainstA& m = memo[b_state.entry_class];
            if (m.a != a) {
                events.pair_entries(a, b, t.data());
                m = {a, earliest_reach(events.slot(a).value) <= a_state.position,
                     earliest_reach(events.slot(b).value), kNone};
            }
            std::uint32_t part;
            const std::uint32_t on_cycle = m.reaches_a                     ? a
                                           : m.b_reach <= b_state.position ? b
                                                                           : kNone;
            if (on_cycle == kNone) {
                part = new_partition(x, kNone);
            } else {
                std::uint32_t& of_c = of_component[comps.of[on_cycle]];
                if (of_c == kNone) of_c = new_partition(x, on_cycle);
                part = of_c;
            }
            out.of_race.push_back(part); // races come in id order
            ++out.race_count[part];
            if (m.folded != part) {
                m.folded = part;
                events.pair_entries(a, b, t.data());
                std::uint32_t* enter = &out.enter[std::size_t(part) * p];
                for (std::uint32_t q = 0; q < p; ++q)
                    enter[q] = std::min(enter[q], t[q]);
            }
            note(a_state, part);
            note(b_state, part);
        }
    });
    if (!out.changes_kept) std::vector<std::pair<std::uint32_t, std::uint32_t>>().swap(out.changes);
    const std::size_t count = out.count();
    // What each partition reaches by non-empty paths: a component's row (its races reach every
    // member of the component back, and what the members reach), or for a race alone what its
    // entries reach.
    out.reach.assign(count * p, kNone);
    for (PartitionId part : ids<PartitionId>(count)) {
        std::uint32_t* row = &out.reach[std::size_t(part.value) * p];
        if (anchor[part.value] != kNone) {
            std::copy_n(chain_reach.of(anchor[part.value]), p, row);
        } else {
            events.race_entries(RaceId(out.first_race[part.value]), t.data());
            chain_reach.fold_entries(t.data(), row);
        }
    }
    return out;
}

// The DAG of partitions: the minimal partitions among each partition P's R̂ successors (the
// Hasse diagram of R̂* between partitions).
//
// What P reaches through R̂* (non-empty paths) is, per chain q, the earliest race event
// position it reaches (parts.reach); partition R reaches partition Q iff for some chain q, Q
// has a race event at or after R's position in q (a race is entered only from its events'
// chains). Scanning each chain from where P's own races enter it (parts.enter), a position is
// covered once two other partitions already seen reach it (one of them is not the partition at
// that position), so the scan stops there: the work follows the output, with no scan of all
// pairs.
IdVector<PartitionId, std::vector<PartitionId>> partition_hasse_diagram(const RaceEvents& events,
                                                                        const Partitions& parts) {
    const std::uint32_t p = events.chains();
    const std::size_t count = parts.count();
    // Per race event: the partitions of its races, ascending and distinct, from the changes
    // classify_races counted (and kept, unless they were many: then regenerated by a pass
    // over the races), made distinct per event.
    std::vector<std::uint32_t> parts_begin = parts.change_count;
    std::vector<PartitionId> parts_at;
    {
        for (std::uint32_t v = 0; v < events.count(); ++v)
            parts_begin[v + 1] += parts_begin[v];
        parts_at.resize(parts_begin.back());
        std::vector<std::uint32_t> fill(parts_begin.begin(), parts_begin.end() - 1);
        auto place = [&](std::uint32_t v, std::uint32_t part) {
            parts_at[fill[v]++] = PartitionId(part);
        };
        if (parts.changes_kept) {
            for (const auto& [v, part] : parts.changes)
                place(v, part);
        } else {
            std::vector<std::uint32_t> last(events.count(), kNone);
            events.for_each_race([&](RaceId x, std::uint32_t a, std::uint32_t b) {
                const std::uint32_t part = parts.of_race[x.value];
                for (std::uint32_t v : {a, b})
                    if (last[v] != part) {
                        last[v] = part;
                        place(v, part);
                    }
            });
        }
        // Distinct per event, compacted in place.
        std::uint32_t kept = 0;
        for (std::uint32_t v = 0; v < events.count(); ++v) {
            const auto from = parts_at.begin() + parts_begin[v];
            const auto to = parts_at.begin() + parts_begin[v + 1];
            std::sort(from, to);
            const auto unique_end = std::unique(from, to);
            parts_begin[v] = kept;
            kept = static_cast<std::uint32_t>(std::copy(from, unique_end, parts_at.begin() + kept) -
                                              parts_at.begin());
        }
        parts_begin[events.count()] = kept;
        parts_at.resize(kept);
    }
    auto reach_of = [&](PartitionId part, std::uint32_t q) {
        return parts.reach[std::size_t(part.value) * p + q];
    };
    // Whether `part` has a race event at or after `from` in chain q.
    auto has_race_event_from = [&](std::uint32_t from, std::uint32_t q, PartitionId part) {
        const std::uint32_t last = parts.last_position[std::size_t(part.value) * p + q];
        return last != kNone && from != kNone && last >= from;
    };

    IdVector<PartitionId, std::vector<PartitionId>> after(count);
    IdVector<PartitionId, PartitionId> visited_by(count); // the partition whose scan saw it
    // Per chain, the two smallest positions reached by the partitions seen so far: the smallest
    // and the one reaching it, and the smallest of any other partition.
    struct TwoEarliest {
        std::uint32_t earliest;
        PartitionId earliest_from;
        std::uint32_t second;
    };
    std::vector<TwoEarliest> covered(p);
    std::vector<PartitionId> seen;
    for (PartitionId part : ids<PartitionId>(count)) {
        std::fill(covered.begin(), covered.end(), TwoEarliest{kNone, PartitionId::none(), kNone});
        seen.clear();
        visited_by[part] = part;
        auto add = [&](PartitionId other) {
            for (std::uint32_t q = 0; q < p; ++q) {
                const std::uint32_t v = reach_of(other, q);
                TwoEarliest& b = covered[q];
                if (v < b.earliest) {
                    if (b.earliest_from != other) b.second = b.earliest;
                    b.earliest = v;
                    b.earliest_from = other;
                } else if (other != b.earliest_from && v < b.second) {
                    b.second = v;
                }
            }
        };
        for (std::uint32_t q = 0; q < p; ++q) {
            const std::uint32_t v_begin = parts.enter[std::size_t(part.value) * p + q];
            if (v_begin == kNone) continue;
            // along chain q: its race events are consecutive (chain_end), positions ascending
            const std::uint32_t v_end = events.chain_end(q);
            for (std::uint32_t v = v_begin; v < v_end && events.position(v) < covered[q].second;
                 ++v) {
                for (std::uint32_t i = parts_begin[v]; i < parts_begin[v + 1]; ++i) {
                    const PartitionId other = parts_at[i];
                    if (visited_by[other] == part) continue;
                    visited_by[other] = part;
                    seen.push_back(other);
                    add(other);
                }
            }
        }
        for (PartitionId other : seen) {
            bool through_another = false;
            for (std::uint32_t q = 0; q < p && !through_another; ++q)
                through_another = has_race_event_from(
                    covered[q].earliest_from == other ? covered[q].second : covered[q].earliest, q,
                    other);
            if (!through_another) after[part].push_back(other);
        }
    }
    return after;
}

// Ids: Kahn's topological order of the DAG, first partitions first, ties by smallest race. A
// partition is first when it has no predecessor: no race of another partition is R̂*-before
// it (a finite order has a minimal predecessor when it has any, and that one is in the DAG).
OrderingOutcome number_partitions(Partitions& parts,
                                  const IdVector<PartitionId, std::vector<PartitionId>>& after) {
    const std::size_t count = parts.count();
    IdVector<PartitionId, std::uint32_t> indegree(count, 0);
    for (const auto& successors : after)
        for (PartitionId q : successors)
            ++indegree[q];
    const IdVector<PartitionId, std::uint32_t> predecessors = indegree;
    auto is_first = [&](PartitionId part) { return predecessors[part] == 0; };
    using Key = std::tuple<bool, std::uint32_t, PartitionId>; // (not first, smallest race, id)
    std::priority_queue<Key, std::vector<Key>, std::greater<>> ready;
    for (PartitionId part : ids<PartitionId>(count))
        if (indegree[part] == 0) ready.emplace(!is_first(part), parts.first_race[part.value], part);
    IdVector<PartitionId, std::uint32_t> new_id(count, kNone);
    std::uint32_t next = 0;
    while (!ready.empty()) {
        const PartitionId part = std::get<2>(ready.top());
        ready.pop();
        new_id[part] = next++;
        for (PartitionId q : after[part])
            if (--indegree[q] == 0) ready.emplace(!is_first(q), parts.first_race[q.value], q);
    }
    OrderingOutcome out;
    out.partitions.resize(count);
    for (PartitionId part : ids<PartitionId>(count)) {
        Partition& P = out.partitions[new_id[part]];
        P.id = new_id[part];
        P.first = is_first(part);
        P.race_count = parts.race_count[part.value];
        for (PartitionId q : after[part])
            P.after.push_back(new_id[q]);
        std::sort(P.after.begin(), P.after.end());
    }
    // The race -> partition column of the results, renumbered in place (no second table) unless
    // the numbering is already Kahn's.
    bool renumbered = false;
    for (PartitionId part : ids<PartitionId>(count))
        renumbered |= new_id[part] != part.value;
    if (renumbered)
        for (std::size_t x = 0; x < parts.of_race.size(); ++x)
            parts.of_race.set(x, new_id[PartitionId(parts.of_race[x])]);
    out.partition_of_race = std::move(parts.of_race);
    return out;
}

} // namespace

OrderingOutcome order_races(const TemporalGraph& g, const ApparentRaceList& races,
                            const std::vector<DependenceEdge>& direct_event_control,
                            const ProgressCallback& progress) {
    if (races.empty()) return {};
    if (races.size() >= std::numeric_limits<std::uint32_t>::max())
        throw std::length_error("race ordering: " + std::to_string(races.size()) +
                                " races are more than the ordering stage can number");
    const auto race_count = static_cast<std::uint32_t>(races.size());
    if (progress) progress("ordering", 0.0);
    const RaceEvents events(g, races, event_control_reach(g, direct_event_control));
    const RaceEventGraph h(events);
    if (progress) progress("ordering", 0.3);
    const StrongComponents comps = strong_components(h, kNone); // numbered reverse topologically
    const ChainReach chain_reach(events, h, comps);
    Partitions parts = classify_races(events, comps, chain_reach, race_count);
    if (progress) progress("ordering", 0.6);
    const auto after = partition_hasse_diagram(events, parts);
    if (progress) progress("ordering", 0.9);
    std::vector<std::pair<std::uint32_t, std::uint32_t>>().swap(parts.changes);
    OrderingOutcome out = number_partitions(parts, after);
    if (progress) progress("ordering", 1.0);
    return out;
}

} // namespace firstrace
