// The scope DIEs of one DWARF compilation unit, walked once, answering for any address what
// libdw's dwarf_getscopes and dwarf_getscopes_die answer by walking the unit's DIE tree again
// for every address. SQLite's amalgamation is one unit of 136 000 DIEs: two such walks per
// distinct program counter (tens of thousands in a run of its test program) were 95 % of
// reading the trace (DESIGN-NOTES "Reading large traces").
//
// It follows libdw's traversal (elfutils libdw/libdwP.h __libdw_visit_scopes): every child of
// a visited DIE is looked at; a child is descended into when its tag may own scopes
// (may_have_scopes: the unit, lexical blocks, subprograms, inlined subroutines, namespaces,
// classes, structures, ...). dwarf_getscopes descends only into children whose address
// ranges hold the address, taking the first such child in DIE order at each level.
#pragma once

#include <elfutils/libdw.h>

#include <cstdint>
#include <vector>

namespace firstrace {

class ScopeIndex {
  public:
    static constexpr std::uint32_t kNoNode = 0xffffffffu;

    struct Node {
        Dwarf_Off offset = 0;           // the DIE's offset in its section
        std::uint32_t parent = kNoNode; // the enclosing DIE (node 0 is the unit itself)
        int tag = 0;                    // DW_TAG_*
        std::uint32_t first_range = 0;  // its children's ranges: ranges_[first, first + count)
        std::uint32_t range_count = 0;
    };

    // Walks the unit `cu` (a compile unit DIE). The index is unusable (usable() false) when the
    // unit imports partial units (DW_TAG_imported_unit, dwz), which libdw's walk treats as
    // children: the caller asks libdw then.
    explicit ScopeIndex(Dwarf_Die* cu);

    bool usable() const { return usable_; }
    const Node& node(std::uint32_t i) const { return nodes_[i]; }
    // The DIE of node i (dwarf_offdie in the unit's Dwarf).
    bool die(std::uint32_t i, Dwarf_Die& out) const;
    // The node of the DIE at `offset`, kNoNode when the walk does not reach it.
    std::uint32_t find(Dwarf_Off offset) const;

    // The scopes holding `address` (a file address), innermost first, ending with the unit:
    // the innermost is dwarf_getscopes' first result, the whole list what dwarf_getscopes_die
    // gives for it. Empty when no DIE of the unit holds the address.
    void containing(Dwarf_Addr address, std::vector<std::uint32_t>& out) const;

  private:
    struct ChildRange {
        Dwarf_Addr lo = 0;
        Dwarf_Addr hi = 0;
        Dwarf_Addr max_hi = 0;   // of this and the parent's earlier ranges (by lo)
        std::uint32_t child = 0; // node index
    };
    void walk(Dwarf_Die* cu);
    // The first child (in DIE order) of `parent` whose ranges hold `address`, or kNoNode.
    std::uint32_t child_containing(std::uint32_t parent, Dwarf_Addr address) const;

    Dwarf* dwarf_ = nullptr;
    bool usable_ = true;
    std::vector<Node> nodes_; // in DIE order (preorder), so by increasing offset
    std::vector<ChildRange> ranges_;
};

} // namespace firstrace
