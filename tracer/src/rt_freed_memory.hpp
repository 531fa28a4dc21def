// Freed heap memory: which free last gave back each byte that the allocator may hand out
// again (rt_allocator.cpp records the ordering).
//
// glibc does not hand a freed block back whole: it splits a larger free chunk (the second
// half of a block freed by one thread becomes a block of its own), coalesces neighbours (a
// block spanning two freed ones), and moves a dead thread's arena to the next thread created.
// Keying the free -> reuse ordering by the block's start address, as the allocator once did,
// lost the edge whenever the new block did not start where a freed one started: a false race
// on the reused bytes between their old users and the new owner, which appeared only when
// timing changed which chunk a thread got (CPU load, DESIGN-NOTES "Heap blocks by bytes").
//
// So the ordering is by bytes: every free is its own release object, and the index maps each
// freed byte range (disjoint intervals, sharded by 1 MiB region, a spin lock per shard) to
// the free that last covered it. An allocation takes every range its block overlaps out of
// the index and acquires each free that another process did (one Acquire per free; a free
// whose bytes go to several blocks is acquired by each of them).
#pragma once

#include "rt_internal.hpp"

namespace frt {

// One free: its release object (kObjHeapBlock at the block's start, incarnation = a number
// unique per free) and the counter of that object's next operation (the free is counter 0).
struct FreedBlock {
    u64 address;
    u32 id;
    u32 pid; // the freeing process
    std::atomic<u64> next_counter;
    std::atomic<u32> ranges; // index entries that refer to it
};

// A free that an allocation must acquire: the object and the counter of the Acquire.
struct FreedAcquire {
    u64 address;
    u32 id;
    u64 counter;
};

// Records that [lo, hi) was given back by the free `block` (made by new_freed_block), replacing
// what the index said about these bytes.
void freed_memory_insert(u64 lo, u64 hi, FreedBlock* block);
FreedBlock* new_freed_block(u64 address, u32 pid); // id and counter taken here

// Takes [lo, hi) out of the index (the allocator handed it out) and writes into `out` (at most
// `capacity`) the frees of other processes than `pid` that covered some of it, each once, with
// the counter of its Acquire taken. Returns how many were written; when it is `capacity`, call
// again for the rest (ranges already handled are gone from the index).
u32 freed_memory_take(u64 lo, u64 hi, u32 pid, FreedAcquire* out, u32 capacity);

} // namespace frt
