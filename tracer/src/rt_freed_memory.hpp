// Freed memory: which free last gave back each byte that the allocator (or the kernel) may hand
// out again (rt_allocator.cpp and rt_mmap.cpp record the ordering).
//
// glibc does not hand a freed block back whole: it splits a larger free chunk (the second
// half of a block freed by one thread becomes a block of its own), coalesces neighbours (a
// block spanning two freed ones), and moves a dead thread's arena to the next thread created.
// Keying the free -> reuse ordering by the block's start address, as the allocator once did,
// lost the edge whenever the new block did not start where a freed one started: a false race
// on the reused bytes between their old users and the new owner, which appeared only when
// timing changed which chunk a thread got (CPU load, DESIGN-NOTES "Heap blocks by bytes").
//
// So the ordering is by bytes: every free is its own release object, named by a tag, and a
// shadow of the address space holds, per 16-byte granule (glibc's chunk alignment: no two
// blocks share one), the tag of the free that last covered it. A free writes its tag over its
// granules; an allocation reads the tags over its own and acquires each free of another
// process it finds. Like ThreadSanitizer's shadow memory, this is lock-free and costs a few
// stores or loads per 16 bytes of the block, with no allocation and no ordered index: an index
// of freed ranges under shard locks (the first form of this fix) made every malloc and free
// take a lock and update a tree, 3.5x the cost of the whole allocator model.
//
// The allocator orders two operations on the same bytes itself (the free returns before the
// real free makes the bytes available; the next owner gets them through the arena's lock), so
// the shadow needs no ordering of its own: relaxed atomics, for the compiler's sake only.
#pragma once

#include "rt_internal.hpp"

namespace frt {

// A free's tag: the freeing process (22 bits: the reader's limit on process ids) and a number
// unique to the free (41 bits: 2.2e12 frees). Nonzero; bit 63 clear.
using FreeTag = u64;
inline constexpr unsigned kFreeIdBits = 41;
inline constexpr u32 kFreePidUnknown = (1u << 22) - 1; // processes beyond: never "the same"

FRT_INLINE u64 free_tag_id(FreeTag tag) {
    return tag & ((u64{1} << kFreeIdBits) - 1);
}
FRT_INLINE u32 free_tag_pid(FreeTag tag) {
    return static_cast<u32>(tag >> kFreeIdBits);
}

// A fresh tag for a free by process `pid` (ids come from per-thread batches: no shared cache
// line per free). 0 when the id space is exhausted: the free then orders nothing.
FreeTag new_free_tag(u32 pid);

// [lo, hi) was given back by the free `tag`, replacing what the shadow said about these bytes.
void freed_memory_mark(u64 lo, u64 hi, FreeTag tag);

// Calls visit(context, tag) for the frees of processes other than `pid` that last gave back
// some byte of [lo, hi), in address order, each once per run of bytes it covers (a tag seen
// among the last few is not repeated).
void freed_memory_scan(u64 lo, u64 hi, u32 pid, void (*visit)(void*, FreeTag), void* context);

} // namespace frt
