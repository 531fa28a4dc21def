// Which partitions have a kept partition before them when some are hidden (TSan suppressions
// in the analysis, --file / suppressions / baseline in the report filter): hidden partitions
// are looked through, so hiding library noise never leaves a result without first partitions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace firstrace {

// Partition ids follow a topological order of the partition DAG (DESIGN-NOTES), so one pass in
// id order propagates "a kept partition is before me". after(p) lists p's successors (ids out
// of range are ignored), keeps(p) whether p counts as kept.
template <class After, class Keeps>
std::vector<bool> kept_partitions_before(std::size_t count, After&& after, Keeps&& keeps) {
    std::vector<bool> before(count, false);
    for (std::size_t p = 0; p < count; ++p)
        if (before[p] || keeps(p))
            for (const std::uint32_t next : after(p))
                if (next < count) before[next] = true;
    return before;
}

} // namespace firstrace
