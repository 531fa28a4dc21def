// Rewrites a range table in site order, in place (the reader's compact_ranges, DESIGN-NOTES
// "Reading without copies", nineteenth session).
//
// After the reader's relocations (OpenMP task blocks and frames, lifetimes of reused memory)
// site s's ranges are `source(s)`: where the reader put them (below `in_order`: unmoved, or
// rewritten in place with no more of them) or appended past `in_order` (any order). The result
// holds every site's ranges in site order, site s's from `set_first(s, first)` on. A copy of
// the table held both arrays at once: 4.5 GB for x264's 2.9·10^8 ranges when a lifetime split
// 106 sites of them. In place: the sources below `in_order` are in site order and disjoint, as
// the destinations are, so one moving down overlaps only the sources of earlier sites (moved
// before it: ascending), one moving up only those of later sites moving up (moved before it:
// descending), and a site moving down never writes over one moving up or the reverse. The
// appended ranges wait in a buffer until those are in place, then fill the gaps.
#pragma once

#include <cstddef>
#include <cstdint>

#include "firstrace/mapped_array.hpp"
#include "firstrace/range_table.hpp"

namespace firstrace {

struct RangeSpan {
    std::uint32_t first = 0, count = 0;
};

// `source(s)` must give the same span for a site until set_first(s, ...) is called, which
// happens once per site, ascending, after every other call of source for it (the site table
// derives a count from the next site's first range). Returns the ranges kept.
template <class Source, class SetFirst>
std::size_t compact_ranges_in_place(RangeTable& ranges, std::uint32_t sites, std::size_t in_order,
                                    Source&& source, SetFirst&& set_first) {
    MappedArray<std::uint64_t> appended;
    std::size_t used = 0;
    for (std::uint32_t s = 0; s < sites; ++s) {
        const RangeSpan x = source(s);
        used += x.count;
        if (x.count != 0 && x.first >= in_order)
            for (std::uint32_t r = x.first; r < x.first + x.count; ++r)
                appended.push_back(ranges.stored(r));
    }
    std::size_t to = 0;
    for (std::uint32_t s = 0; s < sites; ++s) {
        const RangeSpan x = source(s);
        if (x.count != 0 && x.first < in_order && to < x.first)
            ranges.move_within(x.first, x.count, to);
        to += x.count;
    }
    for (std::uint32_t s = sites; s-- > 0;) {
        const RangeSpan x = source(s);
        to -= x.count;
        if (x.count != 0 && x.first < in_order && to > x.first)
            ranges.move_within(x.first, x.count, to);
    }
    std::size_t next = 0; // in `appended`
    for (std::uint32_t s = 0; s < sites; ++s) {
        const RangeSpan x = source(s);
        if (x.count != 0 && x.first >= in_order)
            for (std::uint32_t k = 0; k < x.count; ++k)
                ranges.set_stored(to + k, appended[next++]);
        set_first(s, static_cast<std::uint32_t>(to));
        to += x.count;
    }
    ranges.truncate_stored(used);
    ranges.drop_unused_wide();
    ranges.shrink_to_fit();
    return used;
}

} // namespace firstrace
