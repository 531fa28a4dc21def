// A half-open interval of addresses: bytes, or for STD traces variable ids.
#pragma once

#include <cstdint>

namespace firstrace {

// Half-open byte (or, for STD traces, variable-id) interval [lo, hi).
struct Interval {
    std::uint64_t lo = 0;
    std::uint64_t hi = 0;
    friend bool operator==(const Interval&, const Interval&) = default;
};

} // namespace firstrace
