#pragma once
// Strongly connected components of a graph given by a successor cursor, for the two graphs of
// the analysis that are too large to copy into a Boost.Graph: the temporal ordering graph's
// node graph (reachability.cpp, up to 10^6 tasks) and the implicit race-and-race-event graph
// of the ordering stage (race_ordering.cpp, r·p edges never stored).
//
// Pearce's space-efficient variant of Tarjan's search (D. J. Pearce, "A space-efficient
// algorithm for finding strongly connected components", IPL 116(1), 2016): one word per node —
// the preorder number while the node is open, the lowest preorder number reachable once a
// descendant lowered it (then it is no root), and `assigned + component` once it is in a
// component, which is larger than every preorder number and so never lowers another node. The
// depth-first search runs on an explicit stack of (node, successor cursor), so deep graphs do
// not overflow the call stack.
//
// Numbering: roots are tried in node order and successors in cursor order, and a component is
// numbered when its root finishes, so component ids are a post-order of the condensation —
// reverse topological order (an edge between components goes from a higher to a lower id) —
// and exactly the numbering Boost.Graph's strong_components gives on the same graph
// (tests/unit/strong_components_test.cpp checks both against Boost and brute force).
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace firstrace {

struct StrongComponents {
    std::vector<std::uint32_t> of; // node -> component id
    std::uint32_t count = 0;
};

// Successors of node v are enumerated by `graph.next_successor(v, cursor)`: called with a
// cursor that starts at 0, it returns the next successor and advances the cursor past it, or
// returns `end` when there is none. Cursors must stay below 2^31 (the top bit is the search's).
// `graph.node_count()` gives the number of nodes, numbered 0..n-1.
template <class Graph> StrongComponents strong_components(const Graph& graph, std::uint32_t end) {
    const std::uint32_t n = graph.node_count();
    if (n >= std::numeric_limits<std::uint32_t>::max() / 2)
        throw std::length_error("strong components: " + std::to_string(n) +
                                " nodes are more than a 32-bit component search can number");
    constexpr std::uint32_t kNotRoot = 1u << 31; // in a frame's cursor word
    struct Frame {
        std::uint32_t node;
        std::uint32_t cursor; // successor cursor; kNotRoot once a successor lowered the node
    };
    StrongComponents out;
    std::vector<std::uint32_t>& rindex = out.of;
    rindex.assign(n, 0); // 0: not visited
    std::vector<Frame> dfs;
    std::vector<std::uint32_t> open; // visited, not a root, not yet assigned (Pearce's S)
    std::uint32_t next_index = 1;
    std::uint32_t component = 0;
    const std::uint32_t assigned = n + 1;
    auto lower = [&](Frame& f, std::uint32_t w) {
        if (rindex[w] < rindex[f.node]) {
            rindex[f.node] = rindex[w];
            f.cursor |= kNotRoot;
        }
    };
    for (std::uint32_t s = 0; s < n; ++s) {
        if (rindex[s] != 0) continue;
        rindex[s] = next_index++;
        dfs.push_back({s, 0});
        while (!dfs.empty()) {
            Frame& f = dfs.back();
            std::uint32_t cursor = f.cursor & ~kNotRoot;
            const std::uint32_t w = graph.next_successor(f.node, cursor);
            f.cursor = (f.cursor & kNotRoot) | cursor;
            if (w != end) {
                if (rindex[w] == 0) {
                    rindex[w] = next_index++;
                    dfs.push_back({w, 0}); // invalidates f
                } else {
                    lower(f, w);
                }
                continue;
            }
            const Frame done = f;
            dfs.pop_back();
            const std::uint32_t v = done.node;
            if ((done.cursor & kNotRoot) != 0) {
                open.push_back(v);
            } else { // v is a root: it and the open nodes visited after it form a component
                while (!open.empty() && rindex[v] <= rindex[open.back()]) {
                    rindex[open.back()] = assigned + component;
                    open.pop_back();
                }
                rindex[v] = assigned + component;
                ++component;
            }
            if (!dfs.empty()) lower(dfs.back(), v);
        }
    }
    for (std::uint32_t& c : rindex)
        c -= assigned;
    out.count = component;
    return out;
}

} // namespace firstrace
