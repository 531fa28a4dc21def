// What a new mapping and a range given back do (rt_mmap.cpp), for the calls other than mmap
// and munmap that map and unmap memory (shmat, shmdt: rt_sysv_ipc.cpp).
#pragma once

#include <stddef.h>

#include "rt_internal.hpp"

namespace frt {
// [p, p + length) was mapped by the call at pc (p may be MAP_FAILED): a new lifetime of the
// range, ordered after the unmappings of its bytes, then a write of it (its contents).
void mapped(void* p, size_t length, u64 pc);
// [lo, lo + length) is unmapped by the call at pc: a write of it, then its free (before the
// kernel can hand the range out again). `free`: false when the range stays mapped.
void unmapping(u64 lo, u64 length, bool free, u64 pc);
} // namespace frt
