// A stdio stream's state and its lock (POSIX.1-2017 XSH 2.5 "Standard I/O Streams", flockfile).
//
//   locked calls    Every stdio function that is not an _unlocked variant behaves as if it
//                   called flockfile and funlockfile around its work, so two threads calling
//                   fgetc, fseek, ftell, feof, setvbuf, fprintf, ... on one FILE never race on
//                   the FILE. Each is an atomic read-write of one byte of the FILE's `_lock`
//                   field (the lock the call takes; atomic accesses never race with each
//                   other), and races with fclose (a plain write of the whole FILE,
//                   rt_stdio.cpp) and with an _unlocked call made without the lock. The lock a
//                   plain call takes is not recorded as synchronization (ThreadSanitizer does
//                   not see it either, and ordering two threads by their printf calls would
//                   hide the races of every program that prints from two threads).
//   flockfile       flockfile/ftrylockfile/funlockfile are the program's own locking of the
//                   stream: a recursive mutex on the FILE (kObjMutex at the FILE). The
//                   outermost lock is an Acquire once held, the outermost unlock a Release
//                   before the lock is given up; nested ones only count (as a recursive
//                   pthread mutex's inner operations order nothing new). Each also reads the
//                   lock field atomically, as a locked call.
//   _unlocked       getc_unlocked, fputc_unlocked, fread_unlocked, ... take no lock. Called
//                   by a thread that holds the stream (flockfile), they are plain accesses of
//                   the stream's state, the flags and buffer pointers that glibc's inline
//                   bodies (<bits/stdio.h>, used at -O1 and above, instrumented in the
//                   program) read and write: ordered with other holders by the lock, no
//                   access to the lock field, so no race with other threads' locked calls
//                   (they wait for the lock). Called without holding it, they are plain
//                   accesses of the state and of the lock field, and race with any other
//                   thread's use of the stream that nothing orders (POSIX: the caller must
//                   hold the lock when the stream is shared).
//   fopen/fclose    glibc allocates the FILE and its buffer inside fopen and frees them inside
//                   fclose; those allocations and frees are the program's call
//                   (tls_library_call_pc, rt_stdio.hpp): a thread using a stream that another one
//                   closes races with the fclose line (the free writes the block), not with a
//                   line inside libio.
// Not modelled: the inline _unlocked bodies that only move the buffer pointers (getc_unlocked,
// putc_unlocked at -O1+) do not touch the lock field, so they do not race with another thread's
// locked call (a race POSIX forbids; ThreadSanitizer misses it too). The calls are recorded only
// for threads the runtime already knows, never from inside the runtime.
#include <stddef.h>
#include <stdio.h>

#include "rt_fd.hpp"
#include "rt_library_call.hpp"
#include "rt_real.hpp"
#include "rt_record.hpp"
#include "rt_stdio.hpp"

using namespace frt;
namespace fmt = firstrace::format;

namespace {

// The bytes the _unlocked inline bodies read and write: _flags up to the end of the buffer
// pointers (_IO_buf_end), and with them the lock field.
constexpr u64 kStateBytes = offsetof(FILE, _IO_buf_end) + sizeof(char*);
constexpr u64 kLockByte = offsetof(FILE, _lock);
constexpr u64 kStateAndLockBytes = kLockByte + sizeof(void*);

// The streams the thread holds with flockfile, with their depth. A thread holding more than
// kHeld streams at once records every further lock and unlock (untracked_ counts them).
constexpr int kHeld = 8;
struct HeldStream {
    FILE* f;
    u32 depth;
};
__thread HeldStream tls_held[kHeld] __attribute__((tls_model("initial-exec")));
__thread u32 tls_untracked __attribute__((tls_model("initial-exec")));

HeldStream* held(FILE* f) {
    for (HeldStream& h : tls_held)
        if (h.f == f && h.depth != 0) return &h;
    return nullptr;
}
HeldStream* free_slot() {
    for (HeldStream& h : tls_held)
        if (h.depth == 0) return &h;
    return nullptr;
}

void lock_field_used(ThreadState* t, u64 pc, FILE* f) {
    add_access_slow(t, pc, reinterpret_cast<u64>(f) + kLockByte, 1,
                    fmt::kAtomic | fmt::kRead | fmt::kWrite);
}

// An _unlocked call's access of the stream (`modifies`: it moves the buffer pointers or flags).
void used_unlocked(u64 pc, FILE* f, bool modifies) {
    if (f == nullptr) return;
    if (InterceptorScope scope(program_call(pc)); scope) {
        const u64 size = held(f) != nullptr ? kStateBytes : kStateAndLockBytes;
        library_access(scope.thread(), pc, f, size, modifies);
    }
}

void accessed(u64 pc, const void* p, u64 size, bool write) {
    if (p == nullptr || size == 0) return;
    if (InterceptorScope scope(program_call(pc)); scope)
        library_access(scope.thread(), pc, p, size, write);
}

FRT_DECLARE_REAL(flockfile);
FRT_DECLARE_REAL(ftrylockfile);
FRT_DECLARE_REAL(funlockfile);
FRT_DECLARE_REAL(fgetc);
FRT_DECLARE_REAL(getc);
FRT_DECLARE_REAL(getchar);
FRT_DECLARE_REAL(ungetc);
FRT_DECLARE_REAL(fseek);
FRT_DECLARE_REAL(fseeko);
FRT_DECLARE_REAL(fseeko64);
FRT_DECLARE_REAL(ftell);
FRT_DECLARE_REAL(ftello);
FRT_DECLARE_REAL(ftello64);
FRT_DECLARE_REAL(rewind);
FRT_DECLARE_REAL(fgetpos);
FRT_DECLARE_REAL(fgetpos64);
FRT_DECLARE_REAL(fsetpos);
FRT_DECLARE_REAL(fsetpos64);
FRT_DECLARE_REAL(feof);
FRT_DECLARE_REAL(ferror);
FRT_DECLARE_REAL(clearerr);
FRT_DECLARE_REAL(setvbuf);
FRT_DECLARE_REAL(setbuf);
FRT_DECLARE_REAL(setbuffer);
FRT_DECLARE_REAL(setlinebuf);
FRT_DECLARE_REAL(fileno);
FRT_DECLARE_REAL(getc_unlocked);
FRT_DECLARE_REAL(getchar_unlocked);
FRT_DECLARE_REAL(fgetc_unlocked);
FRT_DECLARE_REAL(putc_unlocked);
FRT_DECLARE_REAL(__overflow);
FRT_DECLARE_REAL(putchar_unlocked);
FRT_DECLARE_REAL(fputc_unlocked);
FRT_DECLARE_REAL(fread_unlocked);
FRT_DECLARE_REAL(fwrite_unlocked);
FRT_DECLARE_REAL(fgets_unlocked);
FRT_DECLARE_REAL(fputs_unlocked);
FRT_DECLARE_REAL(feof_unlocked);
FRT_DECLARE_REAL(ferror_unlocked);
FRT_DECLARE_REAL(clearerr_unlocked);
FRT_DECLARE_REAL(fflush_unlocked);
FRT_DECLARE_REAL(fileno_unlocked);

} // namespace

namespace frt {

void stream_used(u64 pc, FILE* f) {
    if (f == nullptr) return;
    if (InterceptorScope scope(program_call(pc)); scope) lock_field_used(scope.thread(), pc, f);
}
void stream_lock_used(ThreadState* t, u64 pc, FILE* f) {
    if (f != nullptr) lock_field_used(t, pc, f);
}
void stream_used_unlocked(u64 pc, FILE* f, bool modifies) {
    used_unlocked(pc, f, modifies);
}

__thread u64 tls_library_call_pc __attribute__((tls_model("initial-exec"))) = 0;

} // namespace frt

// --- flockfile: the program's locking of a stream -----------------------------------------------

namespace {
// After the real lock succeeded (c0: the computation closed at the call).
void stream_locked(ThreadState* t, FILE* f, u64 pc, u64 c0) {
    if (HeldStream* h = held(f)) {
        ++h->depth;
        return;
    }
    if (HeldStream* h = free_slot()) {
        h->f = f;
        h->depth = 1;
    } else {
        ++tls_untracked;
    }
    ObjEntry* o = object(fmt::kObjMutex, f);
    record(t, fmt::kOpAcquire, fmt::kObjMutex, f, o->counter.fetch_add(1), c0, pc, 0,
           lock_incarnation(fmt::kObjMutex, o));
}
} // namespace

FRT_EXPORT void flockfile(FILE* f) {
    const u64 pc = FRT_CALLER();
    InterceptorScope scope(program_call(pc));
    if (!scope) return REAL(flockfile)(f);
    ThreadState* t = scope.thread();
    lock_field_used(t, pc, f);
    const u64 c0 = now();
    if (held(f) == nullptr) close_computation(t, c0);
    scope.outside([&] { REAL(flockfile)(f); });
    stream_locked(t, f, pc, c0);
}
FRT_EXPORT int ftrylockfile(FILE* f) {
    const u64 pc = FRT_CALLER();
    InterceptorScope scope(program_call(pc));
    if (!scope) return REAL(ftrylockfile)(f);
    ThreadState* t = scope.thread();
    lock_field_used(t, pc, f);
    const u64 c0 = now();
    if (held(f) == nullptr) close_computation(t, c0);
    const int r = scope.outside([&] { return REAL(ftrylockfile)(f); });
    if (r == 0) stream_locked(t, f, pc, c0);
    return r;
}
FRT_EXPORT void funlockfile(FILE* f) {
    const u64 pc = FRT_CALLER();
    InterceptorScope scope(program_call(pc));
    if (!scope) return REAL(funlockfile)(f);
    ThreadState* t = scope.thread();
    lock_field_used(t, pc, f);
    HeldStream* h = held(f);
    if (h != nullptr && h->depth > 1) {
        --h->depth;
    } else if (h != nullptr || tls_untracked != 0) {
        // The outermost unlock: the counter is taken while the stream is still held.
        if (h != nullptr)
            h->depth = 0;
        else
            --tls_untracked;
        const u64 c0 = now();
        close_computation(t, c0);
        ObjEntry* o = object(fmt::kObjMutex, f);
        record(t, fmt::kOpRelease, fmt::kObjMutex, f, o->counter.fetch_add(1), c0, pc, 0,
               lock_incarnation(fmt::kObjMutex, o));
    }
    // (an unlock by a thread that does not hold the stream is undefined: no synchronization)
    scope.outside([&] { REAL(funlockfile)(f); });
}

// --- calls that lock the stream ------------------------------------------------------------------

FRT_EXPORT int fgetc(FILE* f) {
    StreamInput input(FRT_CALLER(), f);
    stream_used(FRT_CALLER(), f);
    return REAL(fgetc)(f);
}
FRT_EXPORT int getc(FILE* f) {
    StreamInput input(FRT_CALLER(), f);
    stream_used(FRT_CALLER(), f);
    return REAL(getc)(f);
}
FRT_EXPORT int getchar() {
    StreamInput input(FRT_CALLER(), stdin);
    stream_used(FRT_CALLER(), stdin);
    return REAL(getchar)();
}
FRT_EXPORT int ungetc(int c, FILE* f) {
    stream_used(FRT_CALLER(), f);
    return REAL(ungetc)(c, f);
}
FRT_EXPORT int fseek(FILE* f, long off, int whence) {
    stream_used(FRT_CALLER(), f);
    return REAL(fseek)(f, off, whence);
}
FRT_EXPORT int fseeko(FILE* f, off_t off, int whence) {
    stream_used(FRT_CALLER(), f);
    return REAL(fseeko)(f, off, whence);
}
FRT_EXPORT int fseeko64(FILE* f, off64_t off, int whence) {
    stream_used(FRT_CALLER(), f);
    return REAL(fseeko64)(f, off, whence);
}
FRT_EXPORT long ftell(FILE* f) {
    stream_used(FRT_CALLER(), f);
    return REAL(ftell)(f);
}
FRT_EXPORT off_t ftello(FILE* f) {
    stream_used(FRT_CALLER(), f);
    return REAL(ftello)(f);
}
FRT_EXPORT off64_t ftello64(FILE* f) {
    stream_used(FRT_CALLER(), f);
    return REAL(ftello64)(f);
}
FRT_EXPORT void rewind(FILE* f) {
    stream_used(FRT_CALLER(), f);
    REAL(rewind)(f);
}
FRT_EXPORT int fgetpos(FILE* f, fpos_t* pos) {
    stream_used(FRT_CALLER(), f);
    const int r = REAL(fgetpos)(f, pos);
    if (r == 0) accessed(FRT_CALLER(), pos, sizeof *pos, true);
    return r;
}
FRT_EXPORT int fgetpos64(FILE* f, fpos64_t* pos) {
    stream_used(FRT_CALLER(), f);
    const int r = REAL(fgetpos64)(f, pos);
    if (r == 0) accessed(FRT_CALLER(), pos, sizeof *pos, true);
    return r;
}
FRT_EXPORT int fsetpos(FILE* f, const fpos_t* pos) {
    stream_used(FRT_CALLER(), f);
    accessed(FRT_CALLER(), pos, sizeof *pos, false);
    return REAL(fsetpos)(f, pos);
}
FRT_EXPORT int fsetpos64(FILE* f, const fpos64_t* pos) {
    stream_used(FRT_CALLER(), f);
    accessed(FRT_CALLER(), pos, sizeof *pos, false);
    return REAL(fsetpos64)(f, pos);
}
FRT_EXPORT int feof(FILE* f) {
    stream_used(FRT_CALLER(), f);
    return REAL(feof)(f);
}
FRT_EXPORT int ferror(FILE* f) {
    stream_used(FRT_CALLER(), f);
    return REAL(ferror)(f);
}
FRT_EXPORT void clearerr(FILE* f) {
    stream_used(FRT_CALLER(), f);
    REAL(clearerr)(f);
}
FRT_EXPORT int setvbuf(FILE* f, char* buf, int mode, size_t size) {
    stream_used(FRT_CALLER(), f);
    return REAL(setvbuf)(f, buf, mode, size);
}
FRT_EXPORT void setbuf(FILE* f, char* buf) {
    stream_used(FRT_CALLER(), f);
    REAL(setbuf)(f, buf);
}
FRT_EXPORT void setbuffer(FILE* f, char* buf, size_t size) {
    stream_used(FRT_CALLER(), f);
    REAL(setbuffer)(f, buf, size);
}
FRT_EXPORT void setlinebuf(FILE* f) {
    stream_used(FRT_CALLER(), f);
    REAL(setlinebuf)(f);
}
FRT_EXPORT int fileno(FILE* f) {
    stream_used(FRT_CALLER(), f);
    return REAL(fileno)(f);
}

// --- _unlocked calls
// ------------------------------------------------------------------------------

FRT_EXPORT int getc_unlocked(FILE* f) {
    StreamInput input(FRT_CALLER(), f);
    used_unlocked(FRT_CALLER(), f, true);
    return REAL(getc_unlocked)(f);
}
FRT_EXPORT int getchar_unlocked() {
    StreamInput input(FRT_CALLER(), stdin);
    used_unlocked(FRT_CALLER(), stdin, true);
    return REAL(getchar_unlocked)();
}
FRT_EXPORT int fgetc_unlocked(FILE* f) {
    StreamInput input(FRT_CALLER(), f);
    used_unlocked(FRT_CALLER(), f, true);
    return REAL(fgetc_unlocked)(f);
}
namespace {
// A character put by an _unlocked call (or the inline body's __overflow) at pc, through the
// real call: a send on the descriptor when it transmits the buffer (rt_stdio_output.cpp).
template <class Real> int character_put(u64 pc, FILE* f, int c, Real real) {
    const char text = static_cast<char>(c);
    StreamOutput output(pc, f, &text, 1);
    const int r = real();
    output.finished(r != EOF ? 1 : -1);
    return r;
}
} // namespace

FRT_EXPORT int putc_unlocked(int c, FILE* f) {
    used_unlocked(FRT_CALLER(), f, true);
    return character_put(FRT_CALLER(), f, c, [&] { return REAL(putc_unlocked)(c, f); });
}
FRT_EXPORT int putchar_unlocked(int c) {
    used_unlocked(FRT_CALLER(), stdout, true);
    return character_put(FRT_CALLER(), stdout, c, [&] { return REAL(putchar_unlocked)(c); });
}
FRT_EXPORT int fputc_unlocked(int c, FILE* f) {
    used_unlocked(FRT_CALLER(), f, true);
    return character_put(FRT_CALLER(), f, c, [&] { return REAL(fputc_unlocked)(c, f); });
}
// glibc's slow path of the inline putc_unlocked/putchar_unlocked bodies (<bits/stdio.h>, -O1
// and above): called when the buffer is full, not yet allocated, or line-buffered; it puts c
// and transmits when the buffer overflows or a line ends. The inline body made the accesses.
FRT_EXPORT int __overflow(FILE* f, int c) {
    return character_put(FRT_CALLER(), f, c, [&] { return REAL(__overflow)(f, c); });
}
FRT_EXPORT size_t fread_unlocked(void* p, size_t size, size_t n, FILE* f) {
    StreamInput input(FRT_CALLER(), f);
    used_unlocked(FRT_CALLER(), f, true);
    const size_t r = REAL(fread_unlocked)(p, size, n, f);
    accessed(FRT_CALLER(), p, size * r, true);
    return r;
}
FRT_EXPORT size_t fwrite_unlocked(const void* p, size_t size, size_t n, FILE* f) {
    used_unlocked(FRT_CALLER(), f, true);
    accessed(FRT_CALLER(), p, size * n, false);
    StreamOutput output(FRT_CALLER(), f, p, size * n);
    const size_t r = REAL(fwrite_unlocked)(p, size, n, f);
    output.finished(static_cast<i64>(r * size));
    return r;
}
FRT_EXPORT char* fgets_unlocked(char* s, int n, FILE* f) {
    StreamInput input(FRT_CALLER(), f);
    used_unlocked(FRT_CALLER(), f, true);
    char* r = REAL(fgets_unlocked)(s, n, f);
    if (r != nullptr) accessed(FRT_CALLER(), s, string_length(s) + 1, true);
    return r;
}
FRT_EXPORT int fputs_unlocked(const char* s, FILE* f) {
    used_unlocked(FRT_CALLER(), f, true);
    accessed(FRT_CALLER(), s, string_length(s) + 1, false);
    StreamOutput output(FRT_CALLER(), f, s, string_length(s));
    const int r = REAL(fputs_unlocked)(s, f);
    output.finished(r >= 0 ? 1 : -1);
    return r;
}
FRT_EXPORT int feof_unlocked(FILE* f) {
    used_unlocked(FRT_CALLER(), f, false);
    return REAL(feof_unlocked)(f);
}
FRT_EXPORT int ferror_unlocked(FILE* f) {
    used_unlocked(FRT_CALLER(), f, false);
    return REAL(ferror_unlocked)(f);
}
FRT_EXPORT void clearerr_unlocked(FILE* f) {
    used_unlocked(FRT_CALLER(), f, true);
    REAL(clearerr_unlocked)(f);
}
FRT_EXPORT int fflush_unlocked(FILE* f) {
    used_unlocked(FRT_CALLER(), f, true);
    if (f != nullptr && output_pending(f)) // its buffer goes out (as fflush)
        fd::writes_flushed(f->_fileno, FRT_CALLER());
    return REAL(fflush_unlocked)(f);
}
FRT_EXPORT int fileno_unlocked(FILE* f) {
    used_unlocked(FRT_CALLER(), f, false);
    return REAL(fileno_unlocked)(f);
}

// The __interceptor_ names (rt_record.hpp).
FRT_INTERCEPTOR_ALIAS(flockfile)
FRT_INTERCEPTOR_ALIAS(ftrylockfile)
FRT_INTERCEPTOR_ALIAS(funlockfile)
FRT_INTERCEPTOR_ALIAS(fgetc)
FRT_INTERCEPTOR_ALIAS(getc)
FRT_INTERCEPTOR_ALIAS(getchar)
FRT_INTERCEPTOR_ALIAS(ungetc)
FRT_INTERCEPTOR_ALIAS(fseek)
FRT_INTERCEPTOR_ALIAS(fseeko)
FRT_INTERCEPTOR_ALIAS(fseeko64)
FRT_INTERCEPTOR_ALIAS(ftell)
FRT_INTERCEPTOR_ALIAS(ftello)
FRT_INTERCEPTOR_ALIAS(ftello64)
FRT_INTERCEPTOR_ALIAS(rewind)
FRT_INTERCEPTOR_ALIAS(fgetpos)
FRT_INTERCEPTOR_ALIAS(fgetpos64)
FRT_INTERCEPTOR_ALIAS(fsetpos)
FRT_INTERCEPTOR_ALIAS(fsetpos64)
FRT_INTERCEPTOR_ALIAS(feof)
FRT_INTERCEPTOR_ALIAS(ferror)
FRT_INTERCEPTOR_ALIAS(clearerr)
FRT_INTERCEPTOR_ALIAS(setvbuf)
FRT_INTERCEPTOR_ALIAS(setbuf)
FRT_INTERCEPTOR_ALIAS(setbuffer)
FRT_INTERCEPTOR_ALIAS(setlinebuf)
FRT_INTERCEPTOR_ALIAS(fileno)
FRT_INTERCEPTOR_ALIAS(getc_unlocked)
FRT_INTERCEPTOR_ALIAS(getchar_unlocked)
FRT_INTERCEPTOR_ALIAS(fgetc_unlocked)
FRT_INTERCEPTOR_ALIAS(putc_unlocked)
FRT_INTERCEPTOR_ALIAS(__overflow)
FRT_INTERCEPTOR_ALIAS(putchar_unlocked)
FRT_INTERCEPTOR_ALIAS(fputc_unlocked)
FRT_INTERCEPTOR_ALIAS(fread_unlocked)
FRT_INTERCEPTOR_ALIAS(fwrite_unlocked)
FRT_INTERCEPTOR_ALIAS(fgets_unlocked)
FRT_INTERCEPTOR_ALIAS(fputs_unlocked)
FRT_INTERCEPTOR_ALIAS(feof_unlocked)
FRT_INTERCEPTOR_ALIAS(ferror_unlocked)
FRT_INTERCEPTOR_ALIAS(clearerr_unlocked)
FRT_INTERCEPTOR_ALIAS(fflush_unlocked)
FRT_INTERCEPTOR_ALIAS(fileno_unlocked)
