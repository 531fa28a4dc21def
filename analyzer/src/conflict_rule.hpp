// The conflict rule of DESIGN-NOTES "Atomic and plain accesses" on what one event does to one
// stretch of bytes: two accesses to the same byte conflict when at least one writes, and the
// conflict is a data race unless both are atomic (C11/C++11). Used by the apparent-race sweep
// (apparent_races.cpp) and by the per-race recomputation of the racing bytes (race_accesses.cpp),
// so that both say the same.
#pragma once

#include <cstdint>

#include "firstrace/model.hpp"

namespace firstrace {

// What one event does to one stretch of bytes (an OR of these bits).
enum SegmentAccess : std::uint8_t {
    kPlainRead = 1,
    kPlainWrite = 2,
    kAtomicRead = 4,
    kAtomicWrite = 8,
    kAnyWrite = kPlainWrite | kAtomicWrite,
    kAnyRead = kPlainRead | kAtomicRead,
    kAny = kAnyRead | kAnyWrite,
};

// The SegmentAccess bits of an access site's AccessFlags.
inline std::uint8_t segment_access(std::uint8_t site_flags) {
    const bool atomic = (site_flags & kAccessAtomic) != 0;
    std::uint8_t out = 0;
    if (site_flags & kAccessRead) out |= atomic ? kAtomicRead : kPlainRead;
    if (site_flags & kAccessWrite) out |= atomic ? kAtomicWrite : kPlainWrite;
    return out;
}

// A data race on a stretch of bytes: a write and another access, not both atomic.
inline bool races_on(std::uint8_t x, std::uint8_t y) {
    return ((x & kPlainWrite) && (y & kAny)) || ((y & kPlainWrite) && (x & kAny)) ||
           ((x & kAtomicWrite) && (y & kPlainRead)) || ((y & kAtomicWrite) && (x & kPlainRead));
}

} // namespace firstrace
