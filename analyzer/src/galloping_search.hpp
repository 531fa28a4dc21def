// Galloping search over a predicate true on a prefix: the cost follows the distance moved, for
// windows that move forward along a process (the apparent-race sweep, the dependences).
#pragma once

#include <cstdint>

namespace firstrace {

// First j in [from, n) where pred(j) is false, for a pred true on a prefix of [0, n) (and so on
// a prefix of [from, n)): galloping from `from`, then binary search, so the cost follows the
// distance moved.
template <class Pred> std::uint32_t first_false(std::uint32_t from, std::uint32_t n, Pred pred) {
    std::uint32_t lo = from, step = 1;
    while (lo < n && pred(lo)) {
        const std::uint32_t probe = lo + step >= n ? n - 1 : lo + step;
        if (!pred(probe)) {
            // pred(lo) true, pred(probe) false: the answer is in (lo, probe].
            std::uint32_t hi = probe;
            ++lo;
            while (lo < hi) {
                const std::uint32_t mid = lo + (hi - lo) / 2;
                if (pred(mid))
                    lo = mid + 1;
                else
                    hi = mid;
            }
            return lo;
        }
        lo = probe + 1;
        step *= 2;
    }
    return lo;
}

} // namespace firstrace
