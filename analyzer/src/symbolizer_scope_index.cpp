#include "symbolizer_scope_index.hpp"

#include <dwarf.h>

#include <algorithm>

namespace firstrace {

namespace {

// libdw's may_have_scopes (elfutils libdw/libdw_visit_scopes.c): the DIEs its walks descend into.
bool may_have_scopes(int tag) {
    switch (tag) {
    case DW_TAG_compile_unit:
    case DW_TAG_module:
    case DW_TAG_lexical_block:
    case DW_TAG_with_stmt:
    case DW_TAG_catch_block:
    case DW_TAG_try_block:
    case DW_TAG_entry_point:
    case DW_TAG_inlined_subroutine:
    case DW_TAG_subprogram:
    case DW_TAG_namespace:
    case DW_TAG_class_type:
    case DW_TAG_structure_type:
        return true;
    default:
        return false;
    }
}

} // namespace

ScopeIndex::ScopeIndex(Dwarf_Die* cu) {
    dwarf_ = dwarf_cu_getdwarf(cu->cu);
    Dwarf_Die check;
    if (dwarf_ == nullptr || dwarf_offdie(dwarf_, dwarf_dieoffset(cu), &check) == nullptr ||
        check.addr != cu->addr) {
        usable_ = false;
        return;
    }
    walk(cu);
    if (!usable_) {
        nodes_.clear();
        ranges_.clear();
    }
}

void ScopeIndex::walk(Dwarf_Die* cu) {
    struct Pending {
        Dwarf_Die die;        // the next child to visit
        std::uint32_t parent; // its parent's node
    };
    struct Range {
        std::uint32_t parent;
        ChildRange range;
    };
    std::vector<Range> ranges;
    nodes_.push_back({dwarf_dieoffset(cu), kNoNode, dwarf_tag(cu), 0, 0});
    std::vector<Pending> stack;
    if (Dwarf_Die first; dwarf_child(cu, &first) == 0) stack.push_back({first, 0});
    while (!stack.empty()) {
        // Visit the child, then make the frame point at its next sibling (or drop it) before
        // its own children go on top: nodes are numbered in DIE order.
        Dwarf_Die die = stack.back().die;
        const std::uint32_t parent = stack.back().parent;
        if (Dwarf_Die next; dwarf_siblingof(&die, &next) == 0)
            stack.back().die = next;
        else
            stack.pop_back();
        const int tag = dwarf_tag(&die);
        if (tag == DW_TAG_imported_unit) {
            usable_ = false;
            return;
        }
        const auto index = static_cast<std::uint32_t>(nodes_.size());
        nodes_.push_back({dwarf_dieoffset(&die), parent, tag, 0, 0});
        Dwarf_Addr base = 0, lo = 0, hi = 0;
        for (ptrdiff_t it = 0; (it = dwarf_ranges(&die, it, &base, &lo, &hi)) > 0;)
            if (lo < hi) ranges.push_back({parent, {lo, hi, 0, index}});
        if (may_have_scopes(tag) && dwarf_haschildren(&die) > 0)
            if (Dwarf_Die child; dwarf_child(&die, &child) == 0) stack.push_back({child, index});
    }
    std::stable_sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) {
        return a.parent != b.parent ? a.parent < b.parent : a.range.lo < b.range.lo;
    });
    ranges_.reserve(ranges.size());
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        Node& parent = nodes_[ranges[i].parent];
        ChildRange r = ranges[i].range;
        if (parent.range_count == 0) {
            parent.first_range = static_cast<std::uint32_t>(i);
            r.max_hi = r.hi;
        } else {
            r.max_hi = std::max(r.hi, ranges_.back().max_hi);
        }
        ++parent.range_count;
        ranges_.push_back(r);
    }
}

bool ScopeIndex::die(std::uint32_t i, Dwarf_Die& out) const {
    return dwarf_offdie(dwarf_, nodes_[i].offset, &out) != nullptr;
}

std::uint32_t ScopeIndex::find(Dwarf_Off offset) const {
    const auto it = std::lower_bound(nodes_.begin(), nodes_.end(), offset,
                                     [](const Node& n, Dwarf_Off o) { return n.offset < o; });
    if (it == nodes_.end() || it->offset != offset) return kNoNode;
    return static_cast<std::uint32_t>(it - nodes_.begin());
}

std::uint32_t ScopeIndex::child_containing(std::uint32_t parent, Dwarf_Addr address) const {
    const Node& p = nodes_[parent];
    const auto begin = ranges_.begin() + p.first_range;
    auto it = std::upper_bound(begin, begin + p.range_count, address,
                               [](Dwarf_Addr a, const ChildRange& r) { return a < r.lo; });
    std::uint32_t first = kNoNode;
    while (it != begin) {
        --it;
        if (it->max_hi <= address) break; // no range from here back reaches the address
        if (address < it->hi) first = std::min(first, it->child);
    }
    return first;
}

void ScopeIndex::containing(Dwarf_Addr address, std::vector<std::uint32_t>& out) const {
    out.clear();
    if (!usable_) return;
    for (std::uint32_t n = child_containing(0, address); n != kNoNode;
         n = child_containing(n, address))
        out.push_back(n);
    if (out.empty()) return;
    std::reverse(out.begin(), out.end());
    out.push_back(0);
}

} // namespace firstrace
