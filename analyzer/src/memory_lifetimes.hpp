// Lifetimes of reused memory (issue 11, DESIGN-NOTES "Lifetimes of reused memory").
//
// A free synchronizes with the next allocation of the same storage (C11 7.22.3p2), and the
// tracer records that as an Acquire of the free by the allocating process. As an edge of the
// temporal ordering G it orders the two processes' whole histories: when a thread has ended and
// a later allocation reuses what it freed (a std::thread's state block, a dead thread's arena),
// every later thread is ordered after the whole dead thread, and a race between them on other
// data is hidden. ThreadSanitizer instead forgets the reused bytes' history. Here likewise: the
// reuse is no edge of G; it starts a new lifetime of the reused bytes, and an access belongs to
// the lifetime of the latest reuse of its bytes that started before the access's event ended
// (CLOCK_MONOTONIC readings of the tracer, one clock for all threads). Accesses in different
// lifetimes are different variables: each moves to an address key of its lifetime, the byte's
// address with the lifetime's number in the unused bits 47..61 (program_address() strips it),
// so every later stage compares them as it compares any two addresses.
//
// Why real time and not G: in a program that orders its uses of the bytes, every access of the
// old lifetime precedes the free that ended it, so its event ends before the free (the free is
// a synchronization operation: it ends the freeing process's event, and another process is
// ordered before it only through a release that ends its event); the free's own write is in
// that lifetime too. The reusing process hands the bytes out only after the Acquire (its next
// event ends after it), and a process that gets the new pointer by synchronization does so in
// an event that starts after the reuse. The event's end, not its start, also puts the racy
// uses where they race: a use after free in an event that began before the reuse, and a use of
// the new block published without synchronization (a relaxed store), both conflict with the
// new owner's accesses and the allocation's write. An access in an event that began before
// the reuse and ended after it is counted in both lifetimes (split's `since`): such an event
// is ordered neither before the free nor after the allocation, so it races with the free or
// with the new owner. What it still loses: with several reuses inside one event, only the
// lifetime just before the latest is kept. G without the reuse edges (the latest allocation
// of the byte ordered before the access) would be exact, but the reader has no
// reachability, and a pass after it would come after the sweep that needs the keys.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <vector>

#include "firstrace/interval.hpp"
#include "firstrace/model.hpp"

namespace firstrace {

// The start of a lifetime of `range`: an allocation or mapping that got bytes another process
// had freed, at `clock` (the clock reading of its Acquire). `tag`: the caller's, handed back
// for the starts left out (MemoryLifetimes::left_out).
struct LifetimeStart {
    Interval range;
    std::uint64_t clock = 0;
    std::uint32_t tag = 0;
};

// The address key of byte `address` in lifetime `id` (0: the bytes' first lifetime, the address
// itself; 1..kLifetimeKeys: the generation of the start, below).
inline constexpr std::uint64_t kLifetimeKeys = (std::uint64_t{1} << 15) - 1;
inline std::uint64_t lifetime_key(std::uint64_t address, std::uint64_t id) {
    return address | (id << kLifetimeShift);
}

// A start's lifetime id is its generation: 1 + the highest generation in effect on its bytes
// when it starts (0 on bytes no start covered yet), so that two lifetimes of one byte never
// share a key (numbering the starts globally, ids kLifetimeKeys apart did: a producer that never
// synchronizes with the consumer freeing its messages got 600 false races from 10^5 reuses of
// a few blocks). A start whose generation would exceed `key_limit` is left out: its bytes stay
// in the lifetime they are in, and the caller keeps its Acquire as an ordering (the allocator's
// ordering of C11 7.22.3p2, as before lifetimes), which orders the last separated lifetime's
// accesses and every later incarnation's.
class MemoryLifetimes {
  public:
    // Starts beyond the lifetime bits (addresses at or above 2^47) must be left out by the
    // caller (LifetimeStart::range.hi <= kProgramAddressEnd). key_limit <= kLifetimeKeys.
    explicit MemoryLifetimes(std::vector<LifetimeStart> starts,
                             std::uint64_t key_limit = kLifetimeKeys);

    bool empty() const { return starts_.empty(); }
    // The lifetime in effect at byte `address` at the present (advance_to): 0 or a generation.
    std::uint64_t lifetime_at(std::uint64_t address) const {
        return highest_id({address, address + 1});
    }
    // The starts left out (generation above key_limit), in clock order.
    const std::vector<LifetimeStart>& left_out() const { return left_out_; }
    // Whether some byte of x is in the range of some start (whatever its clock).
    bool touches(const Interval& x) const;
    // Moves the present to `clock`: the starts before it are in effect. Clocks must not
    // decrease from call to call (the events are visited in the order of their end).
    void advance_to(std::uint64_t clock);
    // Calls out(piece) for the pieces of x, ascending, each moved to the key of its lifetime
    // at the present (advance_to). Returns whether some piece moved. With `since` (the start
    // of the access's event), a piece whose lifetime started after it is also given in the
    // lifetime its start replaced (out of order, after it): such an event is ordered neither
    // before the free that ended that lifetime (it would have ended before it) nor after the
    // allocation (it would have started after it), so it races with the free or with the new
    // owner, and both races are reported; the new lifetime alone lost the one with the free.
    template <class F>
    bool split(const Interval& x, F&& out,
               std::uint64_t since = std::numeric_limits<std::uint64_t>::max()) const;

  private:
    std::vector<LifetimeStart> starts_; // by clock
    std::vector<std::uint64_t> ids_;    // ids_[i]: the generation starts_[i] begins
    std::vector<LifetimeStart> left_out_;
    std::vector<Interval> covered_; // union of the starts' ranges, ascending, disjoint
    std::size_t applied_ = 0;       // starts_[0, applied_) are in effect
    // Disjoint pieces of memory, by lo: hi, the latest lifetime in effect there, the one its
    // start replaced there and the start's clock.
    struct Piece {
        std::uint64_t hi;
        std::uint64_t id;
        std::uint64_t replaced = 0;
        std::uint64_t clock = 0;
    };
    std::map<std::uint64_t, Piece> present_;
    void apply(const Interval& range, std::uint64_t id, std::uint64_t clock);
    void cut_at(std::uint64_t address);
    // The highest id in effect on some byte of range (0: none).
    std::uint64_t highest_id(const Interval& range) const;
};

template <class F>
bool MemoryLifetimes::split(const Interval& x, F&& out, std::uint64_t since) const {
    bool moved = false;
    std::uint64_t at = x.lo;
    auto it = present_.upper_bound(x.lo);
    if (it != present_.begin() && std::prev(it)->second.hi > x.lo) --it;
    for (; at < x.hi && it != present_.end() && it->first < x.hi; ++it) {
        if (it->first > at) out(Interval{at, it->first});
        const std::uint64_t lo = std::max(at, it->first);
        const std::uint64_t hi = std::min(x.hi, it->second.hi);
        out(Interval{lifetime_key(lo, it->second.id), lifetime_key(lo, it->second.id) + (hi - lo)});
        if (it->second.clock > since) {
            const std::uint64_t before = lifetime_key(lo, it->second.replaced);
            out(Interval{before, before + (hi - lo)});
        }
        moved = true;
        at = hi;
    }
    if (at < x.hi) out(Interval{at, x.hi});
    return moved;
}

} // namespace firstrace
