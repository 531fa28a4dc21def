// What the stdio and C library interceptors share (rt_stdio_stream.cpp defines them): the
// accesses a stdio call makes to its FILE, and the attribution of the allocations and frees glibc
// makes inside a call (fopen, fclose, opendir, getaddrinfo, localtime's tzset, ...) to the
// program's call.
#pragma once

#include <stdio.h>

#include "rt_library_call.hpp"

namespace frt {

// A call that locks the stream (POSIX 2.5: every stdio function that is not an _unlocked
// variant behaves as if it called flockfile/funlockfile): an atomic read-write of the FILE's
// lock field. Such calls never race with each other; they race with fclose (a plain write of
// the whole FILE) and with an _unlocked call made without the lock (rt_stdio_stream.cpp).
void stream_used(u64 pc, FILE* f);
// The same access, for an interceptor that already holds the guard (t: its thread).
void stream_lock_used(ThreadState* t, u64 pc, FILE* f);
// An _unlocked call's access of the stream's state (`modifies`: it moves the buffer pointers or
// flags), and of its lock field when the thread does not hold the stream (flockfile).
void stream_used_unlocked(u64 pc, FILE* f, bool modifies);

// Made around an input call on f at pc (before the real call, destroyed after it): when the
// call refilled the stream's buffer from its descriptor, or met end of file, a receive on the
// descriptor (rt_stdio_input.cpp).
class StreamInput {
  public:
    StreamInput(u64 pc, FILE* f);
    ~StreamInput();
    StreamInput(const StreamInput&) = delete;
    StreamInput& operator=(const StreamInput&) = delete;

  private:
    u64 pc_;
    FILE* f_;
    char* base_ = nullptr;
    char* ptr_ = nullptr;
    char* end_ = nullptr;
    int flags_ = 0;
};

// Made around an output call on f at pc that adds `bytes` bytes (kUnknown: known only from its
// result), `text` when known (for line buffering; `ends_line`: the call appends a newline):
// when the call transmits buffered bytes to the descriptor, a send on it, before the call when
// that can be told (rt_stdio_output.cpp). finished(): the call returned `written` bytes (or a
// positive count) when it succeeded.
class StreamOutput {
  public:
    static constexpr u64 kUnknown = ~0ull;
    StreamOutput(u64 pc, FILE* f, const void* text, u64 bytes, bool ends_line = false);
    // A wide-character output call (its stream's wide buffer; counts in wide characters).
    struct Wide {};
    StreamOutput(u64 pc, FILE* f, const wchar_t* text, u64 characters, Wide);
    void finished(i64 written);
    StreamOutput(const StreamOutput&) = delete;
    StreamOutput& operator=(const StreamOutput&) = delete;

  private:
    StreamOutput(u64 pc, FILE* f, const void* text, u64 characters, bool ends_line, bool wide);
    u64 pc_;
    FILE* f_;
    u64 bytes_;
    bool wide_;
    u64 pending_ = 0;
};

// Whether f's output buffer holds characters not yet transmitted (its byte buffer, or the wide
// buffer of a wide-oriented stream): fflush and fclose send them (rt_stdio_output.cpp).
bool output_pending(const FILE* f);

// fflush(f) at pc returned: if f is a memory stream (open_memstream, fmemopen), what it stored
// into the program's memory (rt_stdio.cpp).
void memory_stream_flushed(u64 pc, FILE* f);
// An input call on f at pc refilled f's buffer: if f is an fmemopen stream opened for reading,
// the read of the buffer bytes the refill copied (rt_stdio.cpp).
void memory_stream_refilled(u64 pc, FILE* f);

// Set while the program's call at this pc runs a library function that allocates or frees on
// its behalf (fopen/fclose: the FILE and its buffer): the blocks' allocation and free are that
// call (rt_allocator.cpp takes the pc from here while it is nonzero).
extern __thread u64 tls_library_call_pc __attribute__((tls_model("initial-exec")));

// Sets tls_library_call_pc for the length of a library call made at pc (not the runtime's own).
class ProgramAllocations {
  public:
    explicit ProgramAllocations(u64 pc) {
        if (!from_runtime(pc)) tls_library_call_pc = pc;
    }
    ~ProgramAllocations() { tls_library_call_pc = 0; }
    ProgramAllocations(const ProgramAllocations&) = delete;
    ProgramAllocations& operator=(const ProgramAllocations&) = delete;
};

} // namespace frt
