// Template definitions of reachability.hpp.
#pragma once

#include <algorithm>

namespace firstrace {

template <class Slot, class Position>
std::vector<std::uint32_t>
earliest_reach_by_component(const NodeGraph& graph, const Components& components, std::uint32_t p,
                            Slot&& slot, Position&& position) {
    std::vector<std::uint32_t> er(static_cast<std::size_t>(components.count) * p, kNone);
    const ComponentMembers members(components);
    // Reverse topological order = increasing component id: successors are final first.
    for (std::uint32_t c = 0; c < components.count; ++c) {
        std::uint32_t* out = &er[static_cast<std::size_t>(c) * p];
        const std::uint32_t first = members.begin(c), last = members.begin(c + 1);
        bool cyclic = last - first > 1;
        for (std::uint32_t i = first; i < last; ++i) {
            graph.for_each_successor(members.node(i), [&](NodeId w) {
                const std::uint32_t d = components.of[w];
                if (d == c) {
                    cyclic = true;
                    return;
                }
                // What w reaches, plus w itself.
                const std::uint32_t* in = &er[static_cast<std::size_t>(d) * p];
                for (std::uint32_t q = 0; q < p; ++q)
                    out[q] = std::min(out[q], in[q]);
                const SlotId q = slot(w);
                if (q.valid())
                    out[q.value] = std::min(out[q.value], static_cast<std::uint32_t>(position(w)));
            });
        }
        if (cyclic) { // every member reaches every member by a non-empty path
            for (std::uint32_t i = first; i < last; ++i) {
                const SlotId q = slot(members.node(i));
                if (q.valid())
                    out[q.value] = std::min(out[q.value],
                                            static_cast<std::uint32_t>(position(members.node(i))));
            }
        }
    }
    return er;
}

} // namespace firstrace
