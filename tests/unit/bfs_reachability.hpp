// The brute-force reference of every reachability index the unit tests check (vector
// timestamps, intervals): reachability by a breadth-first search from each node.
#pragma once

#include <deque>
#include <vector>

#include "reachability.hpp"

namespace firstrace::test {

// reach[u][v]: a path from u to v, u itself included.
inline std::vector<std::vector<bool>> bfs_reachability(const NodeGraph& graph) {
    std::vector<std::vector<bool>> reach(graph.node_count,
                                         std::vector<bool>(graph.node_count, false));
    for (const NodeId u : graph.nodes()) {
        std::deque<NodeId> queue{u};
        reach[u.value][u.value] = true;
        while (!queue.empty()) {
            const NodeId v = queue.front();
            queue.pop_front();
            graph.for_each_successor(v, [&](NodeId w) {
                if (!reach[u.value][w.value]) {
                    reach[u.value][w.value] = true;
                    queue.push_back(w);
                }
            });
        }
    }
    return reach;
}

} // namespace firstrace::test
