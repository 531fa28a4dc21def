// Opening and closing standard I/O streams: fopen/fopen64/freopen/tmpfile return a stream on a
// descriptor the kernel just handed out (a new incarnation of its number, rt_fd.cpp); fclose
// destroys the FILE (a plain write of it: a stdio call on the stream racing with its fclose is a
// race, rt_libc_memory.cpp) and closes its descriptor (a write of the descriptor's byte; a later
// open of the number is a new incarnation). freopen closes the old descriptor first. The stream's
// lock and the other FILE calls are in rt_stdio_stream.cpp; the allocations and frees glibc makes
// inside fopen/tmpfile/fclose (the FILE, its buffer) are attributed to the program's call. The
// descriptor is read through the real fileno: a program may define its own fileno (and fopen,
// calling on to __interceptor_fopen, below).
#include <stdio.h>

#include "rt_fd.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_stdio.hpp"

using namespace frt;

namespace {
FRT_DECLARE_REAL(fopen);
FRT_DECLARE_REAL(fopen64);
FRT_DECLARE_REAL(freopen);
FRT_DECLARE_REAL(tmpfile);
FRT_DECLARE_REAL(fclose);
FRT_DECLARE_REAL(fileno);

FILE* opened(FILE* f, u64 pc) {
    tls_library_call_pc = 0;
    if (f != nullptr) fd::created(REAL(fileno)(f), pc);
    return f;
}
// glibc allocates the FILE (and later its buffer) inside the call: the program's allocation.
u64 opening(u64 pc) {
    if (!from_runtime(pc)) tls_library_call_pc = pc;
    return pc;
}
void closing(FILE* f, u64 pc) {
    if (f != nullptr) fd::retired(REAL(fileno)(f), pc);
}
} // namespace

FRT_EXPORT FILE* fopen(const char* path, const char* mode) {
    const u64 pc = opening(FRT_CALLER());
    return opened(REAL(fopen)(path, mode), pc);
}
FRT_EXPORT FILE* fopen64(const char* path, const char* mode) {
    const u64 pc = opening(FRT_CALLER());
    return opened(REAL(fopen64)(path, mode), pc);
}
FRT_EXPORT FILE* freopen(const char* path, const char* mode, FILE* f) {
    closing(f, FRT_CALLER());
    return opened(REAL(freopen)(path, mode, f), FRT_CALLER());
}
FRT_EXPORT FILE* tmpfile() {
    const u64 pc = opening(FRT_CALLER());
    return opened(REAL(tmpfile)(), pc);
}
FRT_EXPORT int fclose(FILE* f) {
    const u64 pc = FRT_CALLER();
    if (InterceptorScope scope(from_runtime(pc) ? nullptr : enter_attached()); scope) {
        library_access(scope.thread(), pc, f, sizeof(FILE), true);
    }
    closing(f, pc);
    // glibc frees the buffer and the FILE inside: the program's fclose writes the block (a use
    // of the stream by another thread races with this line, not with libio's free).
    ProgramAllocations program(pc);
    return REAL(fclose)(f);
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(fopen)
FRT_INTERCEPTOR_ALIAS(fopen64)
FRT_INTERCEPTOR_ALIAS(freopen)
FRT_INTERCEPTOR_ALIAS(tmpfile)
FRT_INTERCEPTOR_ALIAS(fclose)
