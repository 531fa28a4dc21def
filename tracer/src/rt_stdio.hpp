// What the stdio interceptors share (rt_stdio_stream.cpp defines them): the accesses a stdio
// call makes to its FILE, and the attribution of the frees glibc makes inside fclose.
#pragma once

#include <stdio.h>

#include "rt_internal.hpp"

namespace frt {

// A call that locks the stream (POSIX 2.5: every stdio function that is not an _unlocked
// variant behaves as if it called flockfile/funlockfile): an atomic read-write of the FILE's
// lock field. Such calls never race with each other; they race with fclose (a plain write of
// the whole FILE) and with an _unlocked call made without the lock (rt_stdio_stream.cpp).
void stream_used(u64 pc, FILE* f);

// The thread that fopen'd or is fclose'ing a stream: glibc allocates and frees the FILE and its
// buffer inside the call, and the block's allocation and free are the program's call at pc
// (rt_allocator.cpp takes it from here while it is nonzero; the call sets it back to 0).
extern __thread u64 tls_library_call_pc __attribute__((tls_model("initial-exec")));

} // namespace frt
