#include "validation.hpp"

#include <optional>
#include <unordered_map>

#include "huge_pages.hpp"

namespace firstrace {

NodeGraph augmented_graph(const TemporalGraph& g, const std::vector<DependenceEdge>& edges) {
    std::vector<Edge> all = g.edges();
    all.reserve(all.size() + edges.size());
    for (const auto& e : edges)
        all.emplace_back(g.start_node(e.from), g.finish_node(e.to));
    return NodeGraph::from_edges(g.node_count(), std::move(all));
}

ValidationOutcome validate_races(const TemporalGraph& g, const ApparentRaceList& races,
                                 const Dependences& shared_data, const Dependences& event_control,
                                 const ProgressCallback& progress, std::uint64_t timestamp_budget) {
    ValidationOutcome out;
    assign_on_huge_pages(out.status, races.size(), RaceStatus::Feasible);
    if (races.empty()) return out;
    bool any_ordered = false;
    {
        if (progress) progress("validation (G_D)", 0.0);
        const NodeGraph gd = augmented_graph(g, shared_data.all);
        const Components comps = strong_components(gd);
        const GraphReachability ts(g, gd, comps, timestamp_budget);
        std::unordered_map<std::uint32_t, std::uint32_t> tangle_ids;
        // Races are sorted by a, and dense traces have thousands per a: what the queries need
        // of a's nodes is found once per a (on vector timestamps: af's slot and serial and
        // as's row), then each race costs b's nodes only.
        const VectorTimestamps* const vt = ts.timestamps();
        EventId a = EventId::none();
        NodeId as, af;
        VectorTimestamps::Source af_source{};
        std::optional<VectorTimestamps::Row> as_row;
        races.for_each([&](std::uint32_t i, EventId race_a, EventId race_b) {
            if (race_a != a) {
                a = race_a;
                as = g.start_node(a);
                af = g.finish_node(a);
                if (vt != nullptr) {
                    af_source = vt->source(af);
                    as_row = vt->row(as);
                }
            }
            const NodeId bs = g.start_node(race_b), bf = g.finish_node(race_b);
            const bool ordered = vt != nullptr
                                     ? vt->reaches(af_source, bs) ||
                                           VectorTimestamps::reaches(vt->source(bf), *as_row)
                                     : ts.reaches(af, bs) || ts.reaches(bf, as);
            if (ordered) {
                out.status[i] = RaceStatus::Unvalidated; // until G_E says otherwise
                any_ordered = true;
            }
            std::uint32_t scc = kNone;
            if (comps.of[af] == comps.of[bs])
                scc = comps.of[af];
            else if (comps.of[bf] == comps.of[as])
                scc = comps.of[bf];
            if (scc != kNone) {
                auto [it, inserted] = tangle_ids.try_emplace(scc, out.tangle_count);
                if (inserted) ++out.tangle_count;
                if (out.tangle.empty()) assign_on_huge_pages(out.tangle, races.size(), kNone);
                out.tangle[i] = it->second;
            }
        });
    }
    if (!any_ordered) return out;
    if (progress) progress("validation (G_E)", 0.0);
    const NodeGraph ge = augmented_graph(g, event_control.all);
    const Components comps = strong_components(ge);
    const GraphReachability ts(g, ge, comps, timestamp_budget);
    const VectorTimestamps* const vt = ts.timestamps();
    EventId a = EventId::none();
    NodeId af;
    VectorTimestamps::Source af_source{};
    std::optional<VectorTimestamps::Row> af_row;
    races.for_each([&](std::uint32_t i, EventId race_a, EventId race_b) {
        if (out.status[i] != RaceStatus::Unvalidated) return;
        if (race_a != a) { // as above: a's part once per a
            a = race_a;
            af = g.finish_node(a);
            if (vt != nullptr) {
                af_source = vt->source(af);
                af_row = vt->row(af);
            }
        }
        const NodeId bf = g.finish_node(race_b);
        const bool ordered = vt != nullptr ? vt->reaches(af_source, bf) ||
                                                 VectorTimestamps::reaches(vt->source(bf), *af_row)
                                           : ts.reaches(af, bf) || ts.reaches(bf, af);
        if (!ordered) out.status[i] = RaceStatus::FeasibleEc;
    });
    return out;
}

} // namespace firstrace
