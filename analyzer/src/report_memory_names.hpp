// Names of conflicting memory as reports show it (DESIGN "Outputs"): STD variables by name,
// globals by their data symbol, heap memory by its block ("heap block of 24 bytes allocated at
// main ring.c:73 by main, offset 16 (8 bytes)"), anything else as an address range.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "firstrace/model.hpp"

namespace firstrace {

class MemoryNames {
  public:
    // Indexes the trace's heap blocks once; `trace` must outlive this object.
    explicit MemoryNames(const Trace& trace);

    // The name of [range.lo, range.hi): Trace::describe, except that bytes inside a heap block
    // are named by the block. Offset and size are in bytes, "+N" is never a size. A key of a
    // later lifetime of reused bytes (model.hpp) names its bytes.
    std::string name(const Interval& range) const;

    // The heap block holding range.lo: the latest allocated one of the key's lifetime of reused
    // bytes (HeapBlock::lifetime), else the latest one; kNone when none.
    std::uint32_t heap_block(const Interval& range) const;

  private:
    const Trace& trace_;
    struct Entry {
        std::uint64_t lo, hi, max_hi; // max_hi: running maximum of hi over the sorted prefix
        std::uint32_t block;
    };
    std::vector<Entry> blocks_; // sorted by lo
};

} // namespace firstrace
