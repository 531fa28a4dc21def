#include "validation.hpp"

#include <optional>
#include <unordered_map>

namespace firstrace {

NodeGraph augmented_graph(const TemporalGraph& g, const std::vector<DependenceEdge>& edges) {
    std::vector<Edge> all = g.edges();
    all.reserve(all.size() + edges.size());
    for (const auto& e : edges)
        all.emplace_back(g.start_node(e.from), g.finish_node(e.to));
    return NodeGraph::from_edges(g.node_count(), std::move(all));
}

namespace {

// The order of a run's b's against its a in an augmented graph: b precedes a when b's finish
// reaches a's node `a_in`, a precedes b when a's node `a_out` reaches b's start (`b_start`) or
// finish. What the queries need of a's nodes is found once (on vector timestamps: a_out's
// slot and serial and a_in's row).
class OrderWithA {
  public:
    OrderWithA(const TemporalGraph& g, const GraphReachability& ts, NodeId a_in, NodeId a_out,
               bool b_start)
        : g_(g), ts_(ts), vt_(ts.timestamps()), a_in_(a_in), a_out_(a_out), b_start_(b_start) {
        if (vt_ == nullptr) return;
        a_out_source_ = vt_->source(a_out);
        a_in_row_.emplace(vt_->row(a_in));
    }
    // The unordered middle [lo, hi) of the events [from, to) of one process, ascending: those
    // preceding a are a prefix, those a precedes a suffix (process order is in the graph).
    std::pair<const std::uint32_t*, const std::uint32_t*> unordered(const std::uint32_t* from,
                                                                    const std::uint32_t* to) const {
        const std::uint32_t* lo = std::partition_point(from, to, [&](std::uint32_t y) {
            const NodeId bf = g_.finish_node(EventId(y));
            return vt_ != nullptr ? VectorTimestamps::reaches(vt_->source(bf), *a_in_row_)
                                  : ts_.reaches(bf, a_in_);
        });
        const std::uint32_t* hi = std::partition_point(lo, to, [&](std::uint32_t y) {
            const NodeId n = b_start_ ? g_.start_node(EventId(y)) : g_.finish_node(EventId(y));
            return !(vt_ != nullptr ? vt_->reaches(a_out_source_, n) : ts_.reaches(a_out_, n));
        });
        return {lo, hi};
    }

  private:
    const TemporalGraph& g_;
    const GraphReachability& ts_;
    const VectorTimestamps* vt_;
    NodeId a_in_, a_out_;
    bool b_start_;
    VectorTimestamps::Source a_out_source_{};
    std::optional<VectorTimestamps::Row> a_in_row_;
};

} // namespace

// Races are taken a run of one a at a time, and a run's b's of one process q at a time: along
// q, the b's that precede a in a graph (b's finish reaches a's start) are a prefix and those a
// precedes a suffix (process order is in the graph), so the ordered races of the stretch are
// found by two binary searches, not by two queries per race (fork/join waves at 1.4·10^6
// lines: 2.3·10^8 races, nearly all ordered in G_D and G_E). A tangle (a and b in one strong
// component) is ordered both ways, so only ordered races are checked for one, and only when
// a's nodes lie on a cycle.
ValidationOutcome validate_races(const TemporalGraph& g, const ApparentRaceList& races,
                                 const Dependences& shared_data, const Dependences& event_control,
                                 const ProgressCallback& progress, std::uint64_t timestamp_budget) {
    ValidationOutcome out;
    out.status.assign(races.size(), RaceStatus::Feasible);
    if (races.empty()) return out;
    // f(index of b's first race, b's, one past them) per run and process of b
    const auto for_each_stretch = [&](std::uint32_t first, const std::uint32_t* b,
                                      const std::uint32_t* b_end, auto&& f) {
        for (const std::uint32_t* it = b; it != b_end;) {
            const std::uint32_t* const q_end =
                end_of_process(it, b_end, g.process_end(g.event_process(EventId(*it))));
            f(first + static_cast<std::uint32_t>(it - b), it, q_end);
            it = q_end;
        }
    };
    bool any_ordered = false;
    {
        if (progress) progress("validation (G_D)", 0.0);
        const NodeGraph gd = augmented_graph(g, shared_data.all);
        const Components comps = strong_components(gd);
        const GraphReachability ts(g, gd, comps, timestamp_budget);
        std::vector<bool> cyclic(comps.count, false); // components of more than one node
        {
            std::vector<std::uint8_t> seen(comps.count, 0);
            for (std::uint32_t n = 0; n < g.node_count(); ++n) {
                const std::uint32_t c = comps.of[NodeId(n)];
                if (seen[c] != 0) cyclic[c] = true;
                seen[c] = 1;
            }
        }
        std::unordered_map<std::uint32_t, std::uint32_t> tangle_ids;
        races.for_each_run([&](std::uint32_t first, EventId a, const std::uint32_t* b,
                               const std::uint32_t* b_end) {
            const NodeId as = g.start_node(a), af = g.finish_node(a);
            // ordered in G_D: b's finish reaches a's start, or a's finish b's start
            const OrderWithA order(g, ts, as, af, true);
            const bool may_tangle = cyclic[comps.of[af]] || cyclic[comps.of[as]];
            const auto ordered = [&](std::uint32_t i, const std::uint32_t* from,
                                     const std::uint32_t* to) {
                if (from == to) return;
                any_ordered = true;
                std::fill(out.status.begin() + i, out.status.begin() + i + (to - from),
                          RaceStatus::Unvalidated); // until G_E says otherwise
                if (!may_tangle) return;
                for (const std::uint32_t* y = from; y != to; ++y, ++i) {
                    const NodeId bs = g.start_node(EventId(*y)), bf = g.finish_node(EventId(*y));
                    std::uint32_t scc = kNone;
                    if (comps.of[af] == comps.of[bs])
                        scc = comps.of[af];
                    else if (comps.of[bf] == comps.of[as])
                        scc = comps.of[bf];
                    if (scc == kNone) continue;
                    auto [it, inserted] = tangle_ids.try_emplace(scc, out.tangle_count);
                    if (inserted) ++out.tangle_count;
                    if (out.tangle.empty()) out.tangle.assign(races.size(), kNone);
                    out.tangle[i] = it->second;
                }
            };
            for_each_stretch(
                first, b, b_end,
                [&](std::uint32_t i, const std::uint32_t* from, const std::uint32_t* to) {
                    const auto [lo, hi] = order.unordered(from, to);
                    ordered(i, from, lo);
                    ordered(i + static_cast<std::uint32_t>(hi - from), hi, to);
                });
        });
    }
    if (!any_ordered) return out;
    if (progress) progress("validation (G_E)", 0.0);
    const NodeGraph ge = augmented_graph(g, event_control.all);
    const Components comps = strong_components(ge);
    const GraphReachability ts(g, ge, comps, timestamp_budget);
    races.for_each_run([&](std::uint32_t first, EventId a, const std::uint32_t* b,
                           const std::uint32_t* b_end) {
        // ordered in G_E: one finish reaches the other
        const NodeId af = g.finish_node(a);
        const OrderWithA order(g, ts, af, af, false);
        for_each_stretch(first, b, b_end,
                         [&](std::uint32_t i, const std::uint32_t* from, const std::uint32_t* to) {
                             const auto [lo, hi] = order.unordered(from, to);
                             for (std::uint32_t k = i + static_cast<std::uint32_t>(lo - from);
                                  k != i + static_cast<std::uint32_t>(hi - from); ++k)
                                 if (out.status[k] == RaceStatus::Unvalidated)
                                     out.status[k] = RaceStatus::FeasibleEc;
                         });
    });
    return out;
}

} // namespace firstrace
