// The ordering of memory reuse: C11 7.22.3p2, a deallocation synchronizes with the next
// allocation of the same memory (and the kernel maps a range again only after its unmapping).
// Used by the allocator (rt_allocator.cpp) and the memory mappings (rt_mmap.cpp); the frees are
// found by the bytes they gave back (rt_freed_memory.hpp).
#pragma once

#include "rt_internal.hpp"

namespace frt {

// The free (or unmapping) at pc of [lo, hi), whose write the caller recorded: closes the
// computation event, writes the Release of the free's own object (kObjHeapBlock at lo,
// incarnation = the free's id, counter 0) and marks the bytes with its tag.
void record_free(ThreadState* t, u64 lo, u64 hi, u64 pc);
// The allocation (or mapping) at pc of [lo, hi): an Acquire (kObjHeapBlock, incarnation = the
// free's id, counter 1) of each free by another process than the current one that last gave
// back some of its bytes. The allocating thread knows a free by its tag only: the reader keys
// heap-block objects by incarnation and names them by the Release. The Acquire carries the new
// block instead (address lo, extra hi - lo): the reader makes it the start of a new lifetime of
// those bytes rather than an ordering of the two processes (DESIGN-NOTES "Lifetimes of reused
// memory"); a trace with address 0 there (before) keeps the ordering.
void record_reuse(ThreadState* t, u64 lo, u64 hi, u64 pc);

// The calling thread's stack block as glibc reports it ([lo, hi): the stack, its static TLS
// and its descriptor, without the guard page); false when unknown. (pthread_getattr_np
// allocates through malloc: not for the access path.)
bool own_stack(u64& lo, u64& hi);
// The start of a thread on the cached stack [lo, hi) of a thread that ended (glibc's stack
// cache), before the Acquire of that thread's end: an Other of kObjThreadStorage at lo with the
// size as its extra value. The reader makes it the start of a new lifetime of those bytes, as
// a reuse of freed memory, and the Acquire no ordering (except on OpenMP's threads).
void record_storage_reuse(ThreadState* t, u64 lo, u64 hi, u64 pc);
// Memory glibc unmaps in its own code: the stack blocks of threads that ended (its stack cache
// unmaps them when it is full, with no interposed munmap and no mark in the shadow of freed
// memory). A thread's end remembers its block among the last kDeadStacks (stack_died).
void stack_died(u64 lo, u64 hi);
// A new mapping [lo, hi) (mmap, a block glibc's malloc maps, a stack glibc maps afresh): when it
// overlaps a remembered dead stack, an Other of kObjMapping at lo with the size as its extra
// value, which the reader makes a new lifetime of [lo, hi), with no ordering. Only then: a
// lifetime start makes the analyzer move every later access of the range to its lifetime's key
// (a mapping of an array the threads then use costs 4x the analysis time and 6x its memory).
void record_mapping(ThreadState* t, u64 lo, u64 hi, u64 pc);

} // namespace frt
